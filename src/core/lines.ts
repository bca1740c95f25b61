// Splits streamed text into lines without ever joining the whole input: each chunk is cut at
// line breaks and only the unfinished tail is carried over. Handles \n, \r\n and lone \r,
// including a \r\n pair split across two chunks.

/** Longest line we accept; a longer one is reported, not accumulated (10 MB single-line files). */
export const MAX_LINE_CHARS = 4 * 1024 * 1024;

export interface LineSink {
  /** `at`: where the line starts in the whole text pushed so far (characters). */
  line(text: string, lineNo: number, at: number): void;
  /** A line longer than MAX_LINE_CHARS: its content was dropped. */
  overlong(lineNo: number, length: number): void;
  /**
   * Given, a line too long to hold is not dropped but handed over in pieces as it comes (a
   * streaming reader: a one-line JSON report of a million calls); its last piece then arrives
   * through `line` as if it were the whole line, and `overlong` is not called.
   */
  piece?(text: string, lineNo: number): void;
}

export class LineSplitter {
  private tail = "";
  private tailOverflow = 0; // characters dropped from an overlong line so far
  private streamed = false; // the current line's first pieces went to sink.piece
  private lineNo = 0;
  private pendingCR = false;
  /** Characters of the chunks before the current one. */
  private consumed = 0;
  /** Where the carried-over tail (the start of an unfinished line) began. */
  private tailAt = 0;

  /**
   * `pieceFrom`: with a sink that takes pieces, the length past which a line goes to it in
   * pieces rather than held whole (a reader of one endless line hands it on as it comes: held
   * up to MAX_LINE_CHARS, every few MB of it outlived the young generation's collections).
   */
  constructor(
    private readonly sink: LineSink,
    private readonly pieceFrom = MAX_LINE_CHARS,
  ) {}

  push(chunk: string): void {
    if (chunk === "") return; // an empty chunk must not forget a pending \r
    let start = 0;
    if (this.pendingCR && chunk.startsWith("\n")) start = 1; // the \n of a split \r\n
    this.pendingCR = false;
    const n = chunk.length;
    if (chunk.indexOf("\r", start) < 0) {
      // No \r at all (most logs): let indexOf find the line ends (a char-by-char loop over a
      // 42 MB log was 5 % of its load).
      for (let nl = chunk.indexOf("\n", start); nl >= 0; nl = chunk.indexOf("\n", start)) {
        this.emit(chunk.slice(start, nl), start);
        start = nl + 1;
      }
      if (start < n) this.append(chunk.slice(start), start);
      this.consumed += n;
      return;
    }
    for (let i = start; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 10 || c === 13) {
        this.emit(chunk.slice(start, i), start);
        if (c === 13) {
          if (i + 1 < n) {
            if (chunk.charCodeAt(i + 1) === 10) i++;
          } else this.pendingCR = true;
        }
        start = i + 1;
      }
    }
    if (start < n) this.append(chunk.slice(start), start);
    this.consumed += n;
  }

  end(): void {
    if (this.tail !== "" || this.tailOverflow > 0 || this.streamed) this.emit("", 0);
  }

  /** Whether the next character pushed starts a line (nothing carried over, no \r pending). */
  get atLineStart(): boolean {
    return this.tail === "" && this.tailOverflow === 0 && !this.streamed && !this.pendingCR;
  }

  /**
   * Counts one line its reader read itself (from the bytes, see HlogIngest.pushBytes), `chars`
   * characters with its line feed, as if it had been pushed: only at a line start.
   */
  passLine(chars: number): void {
    this.lineNo++;
    this.consumed += chars;
  }

  /** Counts lines another reader read (a later part of the same file, joined after this one's). */
  skipLines(n: number): void {
    this.lineNo += n;
  }

  get linesRead(): number {
    return this.lineNo;
  }

  /** Characters pushed so far. */
  get charsRead(): number {
    return this.consumed;
  }

  private append(piece: string, from: number): void {
    if (this.tail === "" && this.tailOverflow === 0) this.tailAt = this.consumed + from;
    if (this.tailOverflow > 0 || this.tail.length + piece.length > (this.sink.piece ? Math.min(this.pieceFrom, MAX_LINE_CHARS) : MAX_LINE_CHARS)) {
      if (this.sink.piece) {
        this.sink.piece(this.tail + piece, this.lineNo + 1);
        this.tail = "";
        this.streamed = true;
        return;
      }
      this.tailOverflow += piece.length;
      return;
    }
    this.tail += piece;
  }

  /** `from`: where lastPiece starts in the current chunk. */
  private emit(lastPiece: string, from: number): void {
    this.lineNo++;
    const carried = this.tail !== "" || this.tailOverflow > 0 || this.streamed;
    const at = carried ? this.tailAt : this.consumed + from;
    if (this.sink.piece && (this.streamed || this.tail.length + lastPiece.length > Math.min(this.pieceFrom, MAX_LINE_CHARS))) {
      // The line's end is already held (a slice of the chunk): only the carried part is a piece.
      this.streamed = false;
      if (this.tail !== "") this.sink.piece(this.tail, this.lineNo);
      this.tail = "";
      this.sink.line(lastPiece, this.lineNo, at);
      return;
    }
    if (this.tailOverflow > 0 || this.tail.length + lastPiece.length > MAX_LINE_CHARS) {
      this.sink.overlong(this.lineNo, this.tail.length + this.tailOverflow + lastPiece.length);
      this.tail = "";
      this.tailOverflow = 0;
      return;
    }
    const text = this.tail === "" ? lastPiece : this.tail + lastPiece;
    this.tail = "";
    this.sink.line(text, this.lineNo, at);
  }
}

/** Convenience for tests and small inputs. */
export function splitLines(text: string): string[] {
  const out: string[] = [];
  const s = new LineSplitter({ line: (t) => out.push(t), overlong: () => out.push("") });
  s.push(text);
  s.end();
  return out;
}
