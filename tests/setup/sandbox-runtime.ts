// Vitest global setup: the local sandbox's Python environment (a venv with numpy, scipy, pandas) is made once, before
// any test file starts an emulation with a sandboxed environment (code_gen, math_with_code), so no test's start-up
// waits minutes for pip on a fresh clone.
import { MissingRuntime, runtimes } from "../../local/sandbox/runtime.js";

export default async function setup(): Promise<void> {
  try {
    await runtimes((line) => process.stderr.write(`${line}\n`));
  } catch (error) {
    // A machine without Python 3: the sandbox's own tests fail saying so; every other test still runs.
    if (!(error instanceof MissingRuntime)) throw error;
    process.stderr.write(`the sandbox's runtime is missing: ${error.message}\n`);
  }
}
