// What `serve` may hand out: the built page and the files and folders named on the command
// line, nothing else. A followed file is found by its id in a table, never by joining a
// requested path, and a folder's files are taken only when their real path stays inside it, so
// `..`, encoded `%2e%2e` and symlinks leading out cannot reach another file.
import { readdirSync, realpathSync, statSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import { CliError } from "./errors";

export interface ServedFile {
  /** The name the page knows it by (its file name, or folder/file for a folder's files). */
  id: string;
  path: string;
}

interface Root {
  /** A named file, or a named folder whose files are followed (new ones too). */
  kind: "file" | "dir";
  path: string;
  real: string;
  label: string;
}

/** True when `child` (a real path) is `dir` or inside it. */
export function inside(dir: string, child: string): boolean {
  const r = relative(dir, child);
  return r === "" || (!r.startsWith(`..${sep}`) && r !== ".." && !r.startsWith(sep) && !/^[a-zA-Z]:/.test(r));
}

export class ServedPaths {
  private readonly roots: Root[] = [];

  constructor(paths: readonly string[]) {
    if (paths.length === 0) throw new CliError(2, "serve: no files or folders to follow (see hdr-spectrum serve --help)");
    const labels = new Set<string>();
    for (const p of paths) {
      let st;
      let real;
      try {
        st = statSync(p);
        real = realpathSync(p);
      } catch {
        throw new CliError(2, `${p}: no such file or folder`);
      }
      const kind = st.isDirectory() ? "dir" : st.isFile() ? "file" : null;
      if (!kind) throw new CliError(2, `${p}: not a file or folder`);
      // Two named things with one name are told apart, so every id names one file.
      const base = basename(real) || "files";
      let label = base;
      for (let k = 2; labels.has(label); k++) label = `${base}~${k}`;
      labels.add(label);
      this.roots.push({ kind, path: p, real, label });
    }
  }

  /** Every followed file as it is now (a folder's files, in name order, new ones included). */
  list(): ServedFile[] {
    const out: ServedFile[] = [];
    for (const r of this.roots) {
      if (r.kind === "file") {
        out.push({ id: r.label, path: r.real });
        continue;
      }
      let names: string[];
      try {
        names = readdirSync(r.real).sort();
      } catch {
        continue;
      }
      for (const name of names) {
        if (name.startsWith(".")) continue;
        const full = join(r.real, name);
        try {
          if (!statSync(full).isFile()) continue;
          // A symlink leading out of the folder is not one of its files.
          if (!inside(r.real, realpathSync(full))) continue;
        } catch {
          continue;
        }
        out.push({ id: `${r.label}/${name}`, path: full });
      }
    }
    return out;
  }

  /** The followed file with this id, or null. */
  find(id: string): ServedFile | null {
    return this.list().find((f) => f.id === id) ?? null;
  }
}

/** A request's path made safe for the page's folder: null when it is refused (a `..` part, raw or encoded, or a NUL). */
export function pagePath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return null;
  const parts = decoded.split("/").filter((x) => x !== "");
  if (parts.some((x) => x === ".." || x === ".")) return null;
  const full = join(root, ...parts);
  return inside(root, full) ? full : null;
}
