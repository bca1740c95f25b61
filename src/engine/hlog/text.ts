// The interval-log reader's text path: lines of text, split, read and decoded, into the sink.
import { LineSplitter, MAX_LINE_CHARS, type LineSink } from "../../core/lines";
import { holdsWhite } from "../../formats/hlog";
import { lastIndexOf, topOf, type HlogSink } from "./sink";
import type { PayloadDecoder } from "../intervals/decode";

export class TextLines implements LineSink {
  readonly splitter: LineSplitter;

  /** The context's decoder (engine/context.ts), kept here: it is asked once a line. */
  private readonly decoder: PayloadDecoder;

  constructor(private readonly sink: HlogSink) {
    this.decoder = sink.options.context.decoder;
    // This object is the splitter's sink, not a pair of closures made for it: the splitter's
    // call then has one target for every log, and the code V8 optimised while warming up
    // (warm-up.ts) is not thrown away at the first line of a real log ("wrong call target").
    this.splitter = new LineSplitter(this);
  }

  /** LineSink: a line longer than MAX_LINE_CHARS. */
  overlong(lineNo: number, length: number): void {
    this.sink.reader.noteProblem(lineNo, `line is ${length} characters long (limit ${MAX_LINE_CHARS}): not a log line`);
  }

  /**
   * Where the last chunk that held white space (other than line feeds) ends, in characters
   * pushed: a line that starts at or after it holds none.
   */
  private whiteEnd = 0;

  push(chunk: string): void {
    if (holdsWhite(chunk)) this.whiteEnd = this.splitter.charsRead + chunk.length;
    this.splitter.push(chunk);
  }

  /** LineSink: one line of the log. */
  line(text: string, lineNo: number, at: number): void {
    const sink = this.sink;
    const interval = sink.reader.readLine(text, lineNo, at >= this.whiteEnd);
    if (!interval) return;
    // Transient: every use of the decoded arrays below is done before the next line's decode.
    const decoded = this.decoder.decode(interval.payload);
    if (!decoded.ok) {
      sink.reader.noteProblem(lineNo, `histogram payload: ${decoded.reason}`);
      return;
    }
    const d = decoded.value;
    const t = sink.tags.get(interval.tag);
    const lastIndex = lastIndexOf(d);
    const top = topOf(d, lastIndex);
    const { payload } = interval;
    if (sink.addShort(t, d, lastIndex, top, interval.rawStart, interval.length, interval.maxColumn, payload, payload.length, at + interval.payloadAt)) return;
    sink.addLong(interval, d, t, lastIndex, top, lineNo, at);
  }
}
