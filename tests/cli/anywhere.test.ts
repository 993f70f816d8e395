// `edgegym` run from a folder outside the checkout, by its absolute path and through `npm link`: inputs and outputs are
// the user's paths (relative to where they stand), environments and state stay the project's.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../local/paths.js";

const exec = promisify(execFile);
const BIN = path.join(PROJECT_ROOT, "bin", "edgegym.js");
const ENV = "example_single_tool_call";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "edgegym-anywhere-"));
  writeFileSync(path.join(dir, "rows.jsonl"), readFileSync(path.join(PROJECT_ROOT, "environments", ENV, "data", "example.jsonl")));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  try {
    const { stdout, stderr } = await exec(command, args, { cwd: dir, env, timeout: 240_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

describe("edgegym outside the checkout", () => {
  it("dataset validate reads a file relative to the working directory, and names it so in an error", async () => {
    const good = await run(process.execPath, [BIN, "dataset", "validate", "rows.jsonl", "-e", ENV]);
    expect(good.code, good.stderr).toBe(0);
    writeFileSync(path.join(dir, "bad.jsonl"), `${readFileSync(path.join(dir, "rows.jsonl"), "utf8").split("\n")[0]}\n{"responses_create_params": 3}\n`);
    const bad = await run(process.execPath, [BIN, "dataset", "validate", "bad.jsonl", "-e", ENV]);
    expect(bad.code).toBe(1);
    expect(bad.stdout + bad.stderr).toMatch(/bad\.jsonl:2: responses_create_params/);
  });

  it("collect starts the local emulation (the project's Workers) and writes the output where the user stands", async () => {
    const result = await run(process.execPath, [BIN, "collect", "-e", ENV, "-i", "rows.jsonl", "-o", "out/rows.jsonl", "-n", "2"]);
    expect(result.code, result.stderr).toBe(0);
    const rows = readFileSync(path.join(dir, "rows.jsonl"), "utf8").trim().split("\n").length;
    expect(
      readFileSync(path.join(dir, "out", "rows.jsonl"), "utf8")
        .trim()
        .split("\n"),
    ).toHaveLength(rows * 2);
    expect(result.stdout).toContain(`rollouts: out/rows.jsonl (${rows * 2})`);
  });

  it("`npm link` in the checkout puts `edgegym` on the PATH", async () => {
    const prefix = path.join(dir, "npm-prefix");
    mkdirSync(prefix);
    const env = { ...process.env, npm_config_prefix: prefix, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" };
    const linked = await exec("npm", ["link"], { cwd: PROJECT_ROOT, env, timeout: 120_000 });
    expect(linked.stderr).not.toMatch(/ERR!/);
    const onPath = { ...process.env, PATH: `${path.join(prefix, "bin")}${path.delimiter}${process.env.PATH}` };
    const help = await run("edgegym", ["--help"], onPath);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: edgegym /);
    const validated = await run("edgegym", ["dataset", "validate", "rows.jsonl", "-e", ENV], onPath);
    expect(validated.code, validated.stderr).toBe(0);
  });
});
