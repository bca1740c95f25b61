// Problems met while loading: one entry per file with its count and first problem, the rest in
// a collapsed list (a 69-file folder gave 56 lines, 20 of them for one file); notes (what a
// reader assumed) in a neutral box apart from errors. Every problem keeps its own element with
// `data-testid=load-error`, its file and line, inside the collapsed list where there are several.
import { memo } from "react";
import { formatCountOf } from "../../core/format";
import type { LoadProblem } from "../../core/types";
import { splitProblems, type FileProblems } from "../state/load-problems";

function where(p: LoadProblem): string {
  return p.line !== null ? `line ${p.line}: ` : "";
}

function Problem({ p, withFile }: { p: LoadProblem; withFile: boolean }) {
  return (
    <li data-testid="load-error" data-file={p.file} data-line={p.line === null ? "" : String(p.line)}>
      {withFile ? (
        <>
          <strong>{p.file}</strong>
          {p.line !== null ? `, line ${p.line}` : ""}: {p.reason}
        </>
      ) : (
        `${where(p)}${p.reason}`
      )}
    </li>
  );
}

function FileEntry({ f, noun }: { f: FileProblems; noun: string }) {
  if (f.problems.length === 1) return <Problem p={f.problems[0]!} withFile />;
  const first = f.problems[0]!;
  return (
    <li className="load-file" data-testid="load-problem-file" data-file={f.file} data-count={f.problems.length}>
      <details>
        <summary>
          <strong>{f.file}</strong>: {formatCountOf(f.problems.length, noun)}, first {where(first)}
          {first.reason}
        </summary>
        <ul>
          {f.problems.map((p, i) => (
            <Problem key={i} p={p} withFile={false} />
          ))}
        </ul>
      </details>
    </li>
  );
}

function Box({ files, kind, onDismiss }: { files: FileProblems[]; kind: "error" | "note"; onDismiss: () => void }) {
  if (files.length === 0) return null;
  const n = files.reduce((a, f) => a + f.problems.length, 0);
  const noun = kind === "error" ? "problem" : "note";
  return (
    <section
      className={kind === "error" ? "load-errors" : "load-errors load-notes"}
      role={kind === "error" ? "alert" : "status"}
      aria-label={kind === "error" ? "Problems while loading" : "Notes on how files were read"}
      data-testid={kind === "error" ? "load-errors" : "load-notes"}
    >
      <div>
        {files.length > 1 ? <p className="load-errors-count">{`${formatCountOf(n, noun)} in ${files.length} files`}</p> : null}
        <ul>
          {files.map((f) => (
            <FileEntry key={f.file} f={f} noun={noun} />
          ))}
        </ul>
      </div>
      <button type="button" onClick={onDismiss} data-testid={kind === "error" ? "dismiss-errors" : "dismiss-notes"}>
        Dismiss
      </button>
    </section>
  );
}

// Memoised: its props do not change with the display unit, so a unit change skips it.
export const LoadErrors = memo(function LoadErrors({ problems, onDismiss }: { problems: LoadProblem[]; onDismiss: () => void }) {
  if (problems.length === 0) return null;
  const { errors, notes } = splitProblems(problems);
  return (
    <>
      <Box files={errors} kind="error" onDismiss={onDismiss} />
      <Box files={notes} kind="note" onDismiss={onDismiss} />
    </>
  );
});
