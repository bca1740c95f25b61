// Each command takes exactly the options its --help lists, and each takes a value exactly when
// its help shows one ("--start S"): the parser's one list of options and the help texts agree.
import { describe, expect, it } from "vitest";
import { main } from "./main";

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stderrIsTTY: false });
  return { code, stdout, stderr };
}

/** The options a help text lists at the start of a line, and whether each is shown with a value. */
function listed(help: string): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const m of help.matchAll(/^ {2}(?:-h, )?(--[a-z-]+)( [A-Z][A-Za-z]*)?/gm)) out.set(m[1]!, (out.get(m[1]!) ?? false) || m[2] !== undefined);
  return out;
}

describe("options: the parser agrees with each command's help", () => {
  for (const command of ["report", "check", "hgrm", "history", "watch", "serve"]) {
    it(command, async () => {
      const help = await run([command, "--help"]);
      expect(help.code).toBe(0);
      const options = listed(help.stdout);
      expect(options.size).toBeGreaterThan(1);
      for (const [name, takesValue] of options) {
        if (name === "--help") continue;
        if (takesValue) {
          const r = await run([command, name]);
          expect(r.stderr, `${command} ${name}`).toContain(`${name} needs a value`);
          expect(r.code).toBe(2);
        } else {
          const r = await run([command, `${name}=x`]);
          expect(r.stderr, `${command} ${name}=x`).toContain(`${name} takes no value`);
          expect(r.code).toBe(2);
        }
      }
    });
  }
});
