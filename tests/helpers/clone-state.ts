// A copy of the project shares the machine-wide state a real checkout would have made once: the sandbox's Python venv
// (.edgegym/sandbox/venv, minutes of pip on first use). Node's packages are linked the same way by each copy.
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { STATE_DIR } from "../../local/paths.js";

/** Links this checkout's sandbox venv into the copy at `root`, when it has been made (tests/setup makes it as root). */
export function shareSandboxVenv(root: string): void {
  const venv = path.join(STATE_DIR, "sandbox", "venv");
  if (!existsSync(venv)) return;
  mkdirSync(path.join(root, ".edgegym", "sandbox"), { recursive: true });
  symlinkSync(venv, path.join(root, ".edgegym", "sandbox", "venv"), "dir");
}
