// Files the user gave the history view, grouped into runs by a run key they can see and edit:
// "{folder}" (the folder each file is in: dropping a history's directory makes one run per
// run folder), or a regular expression matched against each file's path (its first group, or
// the whole match, is the run's name: `run-\\d+` groups run-12-svc.hlog and run-12-db.hlog).
export const FOLDER_KEY = "{folder}";

export interface PathedFile {
  file: File;
  /** The path below what was dropped or picked ("history/run-3/svc.hlog"), else the file's name. */
  path: string;
}

export interface Grouped {
  runs: { id: string; files: File[] }[];
  /** Files no run key matched. */
  unmatched: string[];
  error: string | null;
}

export function groupRuns(files: readonly PathedFile[], key: string): Grouped {
  let re: RegExp | null = null;
  if (key.trim() !== FOLDER_KEY) {
    try {
      re = new RegExp(key);
    } catch (e) {
      return { runs: [], unmatched: [], error: `run key ${key}: ${e instanceof Error ? e.message : String(e)}` };
    }
  }
  const runs = new Map<string, File[]>();
  const unmatched: string[] = [];
  for (const f of files) {
    const name = f.path.split("/").pop() ?? f.path;
    // Hidden files (a run's command-line cache among them) are not latency files.
    if (name.startsWith(".")) continue;
    let id: string | null;
    let file = f.file;
    if (re) {
      const m = re.exec(f.path);
      id = m ? (m[1] ?? m[0]) : null;
      // The run key is not part of the series' name: run-12-svc.hlog is series "svc" of run-12,
      // so that a series keeps its name from run to run.
      const bare = id ? name.replace(id, "").replace(/^[-_. ]+|[-_ ]+(?=\.)|[-_. ]+$/g, "") : name;
      if (bare && bare !== name && !bare.startsWith(".")) file = new File([f.file], bare, { lastModified: f.file.lastModified });
    } else {
      const parts = f.path.split("/");
      id = parts.length >= 2 ? parts[parts.length - 2]! : null;
    }
    if (!id) {
      unmatched.push(f.path);
      continue;
    }
    runs.set(id, [...(runs.get(id) ?? []), file]);
  }
  return { runs: [...runs].map(([id, fs]) => ({ id, files: fs })), unmatched, error: null };
}

/** Files of a drop, folders walked (their paths kept), or the plain files when nothing is a folder. */
export async function droppedFiles(dt: DataTransfer): Promise<PathedFile[]> {
  const entries = Array.from(dt.items)
    .map((i) => (typeof i.webkitGetAsEntry === "function" ? i.webkitGetAsEntry() : null))
    .filter((e): e is FileSystemEntry => e !== null);
  if (entries.length === 0) return Array.from(dt.files).map((file) => ({ file, path: file.name }));
  const out: PathedFile[] = [];
  const walk = async (e: FileSystemEntry, prefix: string): Promise<void> => {
    if (e.isFile) {
      const file = await new Promise<File>((res, rej) => (e as FileSystemFileEntry).file(res, rej));
      out.push({ file, path: `${prefix}${e.name}` });
      return;
    }
    const reader = (e as FileSystemDirectoryEntry).createReader();
    for (;;) {
      const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
      if (batch.length === 0) break;
      for (const c of batch) await walk(c, `${prefix}${e.name}/`);
    }
  };
  for (const e of entries) await walk(e, "");
  return out;
}

/** Files of an <input>: their path below the picked folder (webkitRelativePath), else their name. */
export function pickedFiles(list: FileList | null): PathedFile[] {
  return Array.from(list ?? []).map((file) => ({ file, path: file.webkitRelativePath || file.name }));
}
