/** A failure the command line reports on stderr with its exit code (2: input or usage). */
export class CliError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
