// `edgegym init` and `edgegym env test`, as a user runs them, in a copy of the project (so no other test sees the new folder).
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../local/paths.js";
import { shareSandboxVenv } from "../helpers/clone-state.js";

const exec = promisify(execFile);
let root: string;

async function edgegym(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [path.join(root, "bin", "edgegym.js"), ...args], { cwd: root, timeout: 300_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "edgegym-init-"));
  // Every room and root file the CLI may import (a list written out by hand missed each new room: client/, ledger/, aws/…),
  // but no environment except the SDK, no test except the helpers, no state (.edgegym, .git) and no node_modules (linked).
  const skipped = new Set(["node_modules", "environments", "tests", "docs"]);
  for (const entry of readdirSync(PROJECT_ROOT)) {
    if (skipped.has(entry) || entry.startsWith(".")) continue;
    cpSync(path.join(PROJECT_ROOT, entry), path.join(root, entry), { recursive: true });
  }
  cpSync(path.join(PROJECT_ROOT, "environments", "sdk"), path.join(root, "environments", "sdk"), { recursive: true });
  cpSync(path.join(PROJECT_ROOT, "tests", "helpers"), path.join(root, "tests", "helpers"), { recursive: true });
  // The tests' global setup (vitest.config.mts) comes with the project; the sandbox's venv it makes is per machine, so
  // the copy shares the one the real project has made rather than making its own.
  cpSync(path.join(PROJECT_ROOT, "tests", "setup"), path.join(root, "tests", "setup"), { recursive: true });
  shareSandboxVenv(root);
  symlinkSync(path.join(PROJECT_ROOT, "node_modules"), path.join(root, "node_modules"));
});

describe("edgegym init <name>", () => {
  it("scaffolds an environment that passes its own test at once and collects its example data", { timeout: 300_000 }, async () => {
    const created = await edgegym(["init", "capital_quiz"]);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("environments/capital_quiz/index.ts");
    expect(readdirSync(path.join(root, "environments", "capital_quiz")).sort()).toEqual(["README.md", "data", "index.ts"]);
    expect(existsSync(path.join(root, "tests", "environments", "capital_quiz.test.ts"))).toBe(true);

    const tested = await edgegym(["env", "test", "capital_quiz"]);
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/3 passed/);
    expect(tested.stdout).toMatch(/rollouts\s+2/);
  });

  it("refuses a bad name and an existing environment, saying why", async () => {
    const bad = await edgegym(["init", "Capital-Quiz"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("lower_snake_case");
    await edgegym(["init", "twice"]);
    const again = await edgegym(["init", "twice"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("environments/twice already exists");
  });

  it("env test names the known environments when the name is wrong", async () => {
    const missing = await edgegym(["env", "test", "nope"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no environment "nope"');
  });
});
