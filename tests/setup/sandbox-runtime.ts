// Vitest global setup: the local sandbox's Python environment (a venv with numpy, scipy, pandas) is made once, before
// any test file starts an emulation with a sandboxed environment (code_gen, math_with_code), so no test's start-up
// waits minutes for pip on a fresh clone.
import { runtimes } from "../../local/sandbox/runtime.js";

export default async function setup(): Promise<void> {
  // The local sandbox service runs as root only (README, Sandboxes); elsewhere its tests say so themselves.
  if (process.getuid?.() !== 0) return;
  await runtimes((line) => process.stderr.write(`${line}\n`));
}
