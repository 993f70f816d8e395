// A machine that cannot run the local sandbox (here: no Python 3 where EDGEGYM_SANDBOX_PYTHON points) still starts the
// emulation: every other environment runs, and the sandboxed one is listed as unavailable with what to install.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { postJson, startTestLocal } from "../helpers/local.js";

let local: Local;
let runtimeDir: string;

beforeAll(async () => {
  // A runtime folder without a venv, and no python3 to make one: this process's runtimes() cannot be ready.
  runtimeDir = mkdtempSync(path.join(tmpdir(), "edgegym-no-runtime-"));
  process.env.EDGEGYM_SANDBOX_RUNTIME_DIR = runtimeDir;
  process.env.EDGEGYM_SANDBOX_PYTHON = path.join(runtimeDir, "no-python3-here");
  local = await startTestLocal({ environments: ["code_gen", "example_single_tool_call"] });
}, 120_000);

afterAll(async () => {
  await local?.stop();
  delete process.env.EDGEGYM_SANDBOX_RUNTIME_DIR;
  delete process.env.EDGEGYM_SANDBOX_PYTHON;
  rmSync(runtimeDir, { recursive: true, force: true });
});

describe("the emulation on a machine without the sandbox's runtime", () => {
  it("names the sandboxed environment unavailable, saying what to install, and no other", () => {
    expect(Object.keys(local.unavailable)).toEqual(["code_gen"]);
    expect(local.unavailable.code_gen).toContain("needs Python 3");
    expect(local.unavailable.code_gen).toContain("apt-get install python3");
    expect(local.sandbox).toBeUndefined();
  });

  it("runs the other environments as usual", async () => {
    const row = {
      responses_create_params: {
        input: [{ role: "user", content: "What's the weather in Paris?" }],
        tools: [{ type: "function", name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } }],
      },
    };
    const answer = await postJson(`${local.url}/run?environment=example_single_tool_call`, row);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(typeof answer.body.reward).toBe("number");
  });
});
