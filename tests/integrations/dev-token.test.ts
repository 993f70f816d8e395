// The Python pieces against `npm run dev` as the READMEs show them: no token given, the dev token it saved is used; with
// none saved, a clear refusal. Run in a copy of the repository's layout (integrations/, .edgegym/dev-token), so the
// saved token is this test's own and a real `npm run dev` (or another test's) is never touched.
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { startTestLocal } from "../helpers/local.js";
import { loadGlobalConfig, post, serverAddress } from "./nemo-gym-client.js";

const ENVIRONMENT = "example_multi_step";
const DATA = `environments/${ENVIRONMENT}/data/example.jsonl`;

/** The user's environment with no token setting of their own. */
function untokened(): NodeJS.ProcessEnv {
  const { EDGEGYM_TOKEN: _t, EDGEGYM_URL: _u, API_TOKENS: _a, ...env } = process.env;
  return { ...env, PYTHONDONTWRITEBYTECODE: "1" };
}

/** A repository folder as a user has it: integrations/, the example data, and (when given) the saved dev token. */
function repository(savedToken: string | undefined): string {
  const root = mkdtempSync(path.join(tmpdir(), "edgegym-dev-token-"));
  cpSync(path.join(PROJECT_ROOT, "integrations", "python"), path.join(root, "integrations", "python"), { recursive: true });
  cpSync(path.join(PROJECT_ROOT, "integrations", "nemo_gym"), path.join(root, "integrations", "nemo_gym"), { recursive: true });
  mkdirSync(path.join(root, path.dirname(DATA)), { recursive: true });
  cpSync(path.join(PROJECT_ROOT, DATA), path.join(root, DATA));
  if (savedToken) {
    // As `npm run dev` saves it (local/cli/token.ts saveDevToken).
    mkdirSync(path.join(root, ".edgegym"));
    writeFileSync(path.join(root, ".edgegym", "dev-token"), `${savedToken}\n`, { mode: 0o600 });
  }
  return root;
}

function run(cwd: string, command: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { cwd, env: untokened() });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A README's grpo_batch.py command, pointed at this test's gateway instead of port 8787. */
function readmeGrpoCommand(readmeFile: string, gateway: string): string[] {
  const readme = readFileSync(path.join(PROJECT_ROOT, readmeFile), "utf8");
  const shown = /`(python3 integrations\/python\/examples\/grpo_batch\.py [^`]+)`/.exec(readme)?.[1];
  expect(shown, "the README shows the grpo_batch.py command").toBeDefined();
  expect(shown).toContain("--gateway http://127.0.0.1:8787 ");
  expect(shown).not.toContain("--token");
  return shown!.replace("http://127.0.0.1:8787", gateway).split(/\s+/);
}

let local: Local;
const folders: string[] = [];
beforeAll(async () => {
  // No API_TOKENS: the emulation makes up a dev token, as `npm run dev` does.
  local = await startTestLocal({ environments: [ENVIRONMENT] });
  expect(local.token).toMatch(/^edgegym_dev_/);
}, 120_000);
afterAll(async () => {
  await local?.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function folder(savedToken: string | undefined): string {
  const root = repository(savedToken);
  folders.push(root);
  return root;
}

describe("grpo_batch.py as the READMEs show it, against `npm run dev`", () => {
  it.each(["README.md", "integrations/README.md"])("%s: uses the saved dev token and prints a reward per rollout", async (readme) => {
    const { code, stdout, stderr } = await run(folder(local.token), readmeGrpoCommand(readme, local.url));
    expect(code, stderr).toBe(0);
    const lines = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, number>);
    const summary = lines.pop()!;
    expect(summary).toMatchObject({ rollouts: 32, trained: 32, failed: 0 });
    expect(lines).toHaveLength(32);
    for (const line of lines) {
      expect(typeof line.reward).toBe("number");
      expect(line.generated).toBeGreaterThan(0);
    }
    expect(summary.mean_reward).toBeCloseTo(lines.reduce((sum, l) => sum + l.reward!, 0) / 32, 10);
  });

  it("with no token saved, exits 1 saying what to do (no traceback)", async () => {
    const { code, stdout, stderr } = await run(folder(undefined), readmeGrpoCommand("README.md", local.url));
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain("HTTP 401");
    expect(stderr).toContain("start `npm run dev`, which saves its dev token there, or pass the gateway's token");
    expect(stderr).not.toContain("Traceback");
  });
});

/** Starts the agent server from a copied repository; resolves with its first stdout line or its exit. */
function startAgent(cwd: string, args: string[]): Promise<{ child: ChildProcess; line?: string; code?: number | null; stderr: string }> {
  const child = spawn("python3", ["integrations/nemo_gym/edgegym_agent.py", "--port", "0", ...args], { cwd, env: untokened() });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    child.once("exit", (code) => resolve({ child, code, stderr }));
    createInterface({ input: child.stdout }).once("line", (line) => resolve({ child, line, stderr }));
  });
}

describe("the NeMo Gym agent server against `npm run dev`", () => {
  it("with no token saved, refuses to start: exit 1 and the hint, never a listening line", async () => {
    const started = await startAgent(folder(undefined), ["--gateway", local.url]);
    expect(started.line).toBeUndefined();
    expect(started.code).toBe(1);
    expect(started.stderr).toContain("not started: the gateway");
    expect(started.stderr).toContain("answered 401 Unauthorized");
    expect(started.stderr).toContain("EDGEGYM_TOKEN=<token>");
  });

  it("with the saved dev token, runs integrations/README.md's local ng_collect_rollouts recipe: discovery, then /run", async () => {
    const recipe = readFileSync(path.join(PROJECT_ROOT, "integrations", "README.md"), "utf8");
    expect(recipe).toContain("python3 integrations/nemo_gym/edgegym_agent.py --gateway http://127.0.0.1:8787 &\n");
    const agentName = `${ENVIRONMENT}_simple_agent`;
    expect(recipe).toContain(`+input_jsonl_fpath=${DATA}`);
    expect(recipe).toContain(`+agent_name=${agentName}`);

    const started = await startAgent(folder(local.token), ["--gateway", local.url]);
    const exited = new Promise((resolve) => started.child.once("exit", resolve));
    try {
      expect(started.line, started.stderr).toBeDefined();
      const head = JSON.parse(started.line!) as { host: string; port: number };
      // As NeMo Gym's collector does it: the agent's address from the head server, then the row's /run there, no token.
      const agent = serverAddress(await loadGlobalConfig(head), agentName);
      expect(agent).toEqual({ host: head.host, port: head.port });
      const row = JSON.parse(readFileSync(path.join(PROJECT_ROOT, DATA), "utf8").split("\n")[0]!) as Record<string, unknown>;
      const answer = await post(agent, "/run", { ...row, agent_ref: { name: agentName }, _ng_task_index: 0, _ng_rollout_index: 0 });
      expect(answer.status).toBe(200);
      expect(typeof answer.body.reward).toBe("number");
      expect(answer.body._ng_failure_class).toBeUndefined();
    } finally {
      started.child.kill("SIGTERM");
      await exited;
    }
  });
});
