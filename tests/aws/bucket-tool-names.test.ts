// A job made by the CLI on the AWS path (BucketJobsClient, as `collect --queue-url --bucket` makes it) keeps the job's
// options as the gateway does: tool_names=mcp reaches the agent (the records' calls are mcp__<environment>__<tool>), and
// responses_create_params overrides reach every row. Run by `edgegym worker` over fauxqs, the simulator as the model.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BucketJobsClient } from "../../local/cli/bucket-client.js";
import type { JobOptionsInput } from "../../local/cli/gateway-client.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { sleep } from "./fauxqs.js";
import { type AwsStack, exampleFile, queueAndBucket, startAwsStack } from "./stack.js";

const ENV = "example_single_tool_call";
const BIN = path.join(PROJECT_ROOT, "bin", "edgegym.js");

let stack: AwsStack;
let dir: string;
const children: ChildProcess[] = [];
beforeAll(async () => {
  stack = await startAwsStack();
  dir = mkdtempSync(path.join(tmpdir(), "edgegym-bucket-tool-names-"));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.pid) process.kill(child.pid, "SIGKILL");
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

type Json = Record<string, unknown>;

/** Two example rows as a job with these options, run by one `edgegym worker`: the job's scored records. */
async function runJob(options: JobOptionsInput): Promise<Json[]> {
  const where = await queueAndBucket(stack);
  const input = path.join(dir, `${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(input, readFileSync(exampleFile(ENV), "utf8").split("\n").slice(0, 2).join("\n"));
  const client = new BucketJobsClient({ bucket: where.bucket, queueUrl: where.queueUrl, clients: stack.clients });
  const job = await client.create(input, { environment: ENV, num_repeats: 1, ...options });
  const args = ["worker", "--queue-url", where.queueUrl, "--bucket", where.bucket, "--environments", ENV, "--wait-seconds", "1"];
  const child = spawn(process.execPath, [BIN, ...args], { cwd: PROJECT_ROOT, env: { ...process.env, ...stack.env }, stdio: ["ignore", "ignore", "pipe"] });
  children.push(child);
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const deadline = Date.now() + 60_000;
    for (let info = await client.get(job.id); info.counts.done + info.counts.failed < info.counts.total; info = await client.get(job.id)) {
      if (Date.now() > deadline) throw new Error(`job ${job.id} did not finish: ${JSON.stringify(info.counts)}\n${stderr}`);
      await sleep(200);
    }
  } finally {
    child.kill("SIGTERM");
  }
  expect(await text(await client.lines(job.id, "failures"))).toBe("");
  return (await text(await client.lines(job.id, "rollouts")))
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Json);
}

const callNames = (record: Json) =>
  ((record.response as { output: Json[] }).output ?? []).filter((item) => item.type === "function_call").map((item) => item.name);

describe("a CLI job on the AWS path", () => {
  it("with tool_names=mcp: the model is offered and calls the environment's tools by their MCP names", async () => {
    const records = await runJob({ tool_names: "mcp" });
    expect(records).toHaveLength(2);
    for (const record of records) {
      const names = callNames(record);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect(name).toMatch(new RegExp(`^mcp__${ENV}__`));
      expect(record.reward).toBe(1);
    }
  }, 90_000);

  it("without it: the plain names, as before", async () => {
    const records = await runJob({});
    expect(records.flatMap(callNames).length).toBeGreaterThan(0);
    for (const name of records.flatMap(callNames)) expect(name).not.toMatch(/^mcp__/);
  }, 90_000);

  it("`edgegym collect --queue-url --bucket --tool-names mcp`: the output's calls are mcp__ names", async () => {
    const where = await queueAndBucket(stack);
    const output = path.join(dir, "collect-mcp.jsonl");
    const env = { ...process.env, ...stack.env };
    const worker = spawn(
      process.execPath,
      [BIN, "worker", "--queue-url", where.queueUrl, "--bucket", where.bucket, "--environments", ENV, "--wait-seconds", "1"],
      { cwd: PROJECT_ROOT, env, stdio: "ignore" },
    );
    children.push(worker);
    const args = ["collect", "-i", exampleFile(ENV), "-o", output, "-e", ENV, "--limit", "2", "--queue-url", where.queueUrl, "--bucket", where.bucket];
    const collect = spawn(process.execPath, [BIN, ...args, "--tool-names", "mcp"], { cwd: PROJECT_ROOT, env, stdio: ["ignore", "ignore", "pipe"] });
    children.push(collect);
    const stderr = text(collect.stderr!);
    const code = await new Promise<number | null>((resolve) => collect.on("exit", resolve));
    worker.kill("SIGTERM");
    expect(code, await stderr).toBe(0);
    const records = readFileSync(output, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Json);
    expect(records).toHaveLength(2);
    for (const name of records.flatMap(callNames)) expect(name).toMatch(new RegExp(`^mcp__${ENV}__`));
    expect(records.flatMap(callNames).length).toBeGreaterThan(0);
  }, 90_000);

  it("with responses_create_params (collect's --temperature): every row runs with the override", async () => {
    const records = await runJob({ responses_create_params: { temperature: 0.25 } });
    expect(records.map((record) => (record.responses_create_params as Json).temperature)).toEqual([0.25, 0.25]);
  }, 90_000);
});
