// A file on this machine followed in the page alone (Chromium's File System Access API): its
// bytes read again each second, only complete lines handed on, as `serve` does on the server
// (cli/live-follow.ts). A file that shrinks starts a new run; one that stops growing is said.
import type { LivePiece } from "../../engine/protocol";

/** The part of a FileSystemFileHandle used here. */
export interface FileHandleLike {
  name: string;
  getFile(): Promise<File>;
}

export class LocalFollow {
  private run = 1;
  private offset = 0;
  private grewAt = Date.now();
  private quietSaid = false;
  private goneSaid = false;

  constructor(
    private readonly handle: FileHandleLike,
    private readonly push: (p: LivePiece) => void,
    private readonly note: (text: string) => void,
    private readonly quietMs = 30_000,
  ) {}

  get name(): string {
    return this.handle.name;
  }

  /** One look at the file. */
  async tick(): Promise<void> {
    let f: File;
    try {
      f = await this.handle.getFile();
    } catch {
      if (!this.goneSaid) this.note(`${this.name} cannot be read any more (deleted or moved); waiting for it to come back`);
      this.goneSaid = true;
      return;
    }
    this.goneSaid = false;
    if (f.size < this.offset) {
      this.run++;
      this.offset = 0;
      this.note(`${this.name} was truncated: a new run starts, shown as a new series; the earlier run is kept apart, never mixed`);
    }
    if (f.size > this.offset) {
      const bytes = new Uint8Array(await f.slice(this.offset, f.size).arrayBuffer());
      const end = bytes.lastIndexOf(10) + 1;
      // A partial last line waits for the rest.
      if (end > 0) {
        this.push({ file: `local/${this.name}`, run: this.run, start: this.offset === 0, text: new TextDecoder().decode(bytes.subarray(0, end)) });
        this.offset += end;
        this.grewAt = Date.now();
        this.quietSaid = false;
        return;
      }
    }
    if (!this.quietSaid && Date.now() - this.grewAt >= this.quietMs) {
      this.quietSaid = true;
      this.note(`${this.name}: no new interval for ${Math.round((Date.now() - this.grewAt) / 1000)} s`);
    }
  }
}
