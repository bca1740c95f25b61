// `report`/`check … --prometheus URL --query Q --start S --end E [--step STEP]`: the flags read
// into a request for the engine's API seam (engine/prometheus-query.ts), and its series added
// to the Store the files were loaded into. Credentials come from --bearer-token-file, the
// address's user:password or the environment; they reach the request's headers only.
import { readFileSync } from "node:fs";
import { parseStep, parseTime, publicAddress, queryPrometheus, type PrometheusAuth, type PrometheusRequest } from "../engine/prometheus-query";
import type { IngestResult } from "../engine/series-make";
import { CliError } from "./errors";

/** The environment variables basic auth's user and password may come from (a password never on the command line). */
export const ENV_USER = "HDR_SPECTRUM_PROMETHEUS_USER";
export const ENV_PASSWORD = "HDR_SPECTRUM_PROMETHEUS_PASSWORD";

export interface PrometheusFlags {
  prometheus: string | null;
  query: string | null;
  start: string | null;
  end: string | null;
  step: string | null;
  bearerTokenFile: string | null;
}

/** The request the flags ask for, or null without --prometheus; a usage error (exit 2) when they do not make one. */
export function prometheusRequestOf(f: PrometheusFlags): PrometheusRequest | null {
  if (f.prometheus === null) {
    for (const [name, v] of [
      ["--query", f.query],
      ["--step", f.step],
      ["--bearer-token-file", f.bearerTokenFile],
    ] as const)
      if (v !== null) throw new CliError(2, `${name} needs --prometheus URL`);
    return null;
  }
  if (f.query === null || f.query.trim() === "") throw new CliError(2, "--prometheus needs --query Q (a native histogram, or name_bucket of a classic one)");
  if (f.start === null || f.end === null) throw new CliError(2, "--prometheus needs --start and --end (RFC 3339, as 2026-01-02T15:04:05Z, or epoch seconds)");
  const start = parseTime(f.start);
  if (start === null) throw new CliError(2, `--start ${f.start}: not an RFC 3339 time (2026-01-02T15:04:05Z) or epoch seconds`);
  const end = parseTime(f.end);
  if (end === null) throw new CliError(2, `--end ${f.end}: not an RFC 3339 time (2026-01-02T15:04:05Z) or epoch seconds`);
  if (end < start) throw new CliError(2, `--end ${f.end} is before --start ${f.start}`);
  let step: number | null = null;
  if (f.step !== null) {
    step = parseStep(f.step);
    if (step === null) throw new CliError(2, `--step ${f.step}: a duration (15s, 1m) or seconds above 0`);
  }
  try {
    const u = new URL(f.prometheus);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("not http");
  } catch {
    throw new CliError(2, `--prometheus ${publicAddress(f.prometheus)}: not an http(s) address (the address before /api/v1/, as http://localhost:9090)`);
  }
  return { url: f.prometheus, query: f.query, start, end, step };
}

/** Credentials from --bearer-token-file, else the environment (the address's user:password is read by the request itself). */
export function prometheusAuthOf(f: PrometheusFlags, env: NodeJS.ProcessEnv = process.env): PrometheusAuth {
  if (f.bearerTokenFile !== null) {
    let token: string;
    try {
      token = readFileSync(f.bearerTokenFile, "utf8").trim();
    } catch {
      throw new CliError(2, `--bearer-token-file ${f.bearerTokenFile}: cannot be read`);
    }
    if (token === "") throw new CliError(2, `--bearer-token-file ${f.bearerTokenFile}: empty`);
    return { bearerToken: token };
  }
  if (env[ENV_PASSWORD] !== undefined || env[ENV_USER] !== undefined) return { username: env[ENV_USER] ?? "", password: env[ENV_PASSWORD] ?? "" };
  return {};
}

/** The query's series (or its problems, each naming the query). */
export function loadPrometheus(req: PrometheusRequest, auth: PrometheusAuth, fetchImpl?: typeof fetch): Promise<IngestResult> {
  return queryPrometheus(req, { auth, fetch: fetchImpl });
}
