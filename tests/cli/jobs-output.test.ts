// `edgegym jobs list|status` as a person reads them (a header, metrics once complete), and stdout closed early (EPIPE).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aggregateMetrics } from "../../metrics/index.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { edgegym } from "../helpers/cli.js";

const BIN = path.join(PROJECT_ROOT, "bin", "edgegym.js");

const rewards = [
  [1, 0, 0, 0],
  [1, 1, 0, 1],
];
const verified = rewards.flatMap((task, t) =>
  task.map((reward, r) => ({ id: 100 + t, reward, _ng_task_index: t, _ng_rollout_index: r, response: { usage: null } })),
);
const metrics = aggregateMetrics(verified);
const counts = { total: 8, queued: 0, running: 0, done: 8, failed: 0 };
const completed = {
  id: "job_done",
  status: "completed",
  environment: "mcqa",
  num_repeats: 4,
  counts,
  progress: 1,
  elapsed_seconds: 3.2,
  created_at: 2,
  metrics: { mcqa: metrics },
};
const running = {
  ...completed,
  id: "job_running",
  status: "running",
  progress: 0.5,
  counts: { ...counts, done: 4, queued: 4 },
  metrics: undefined,
  created_at: 1,
};
// Big enough (well over a pipe's 64 KiB) that writing it outlasts a reader that takes one chunk and leaves.
const huge = { ...completed, id: "job_huge", padding: "x".repeat(4 * 1024 * 1024) };

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const body =
      req.url === "/v1/jobs"
        ? { data: [completed, running] }
        : req.url === "/v1/jobs/job_huge"
          ? huge
          : req.url === "/v1/jobs/job_running"
            ? running
            : completed;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

describe("edgegym jobs", () => {
  it("list prints a header over the jobs", async () => {
    const { code, stdout } = await edgegym(["jobs", "list", "--url", url, "--token", "t"]);
    expect(code).toBe(0);
    const [header, rule, first, second] = stdout.split("\n");
    expect(header?.split(/\s+/)).toEqual(["id", "status", "progress", "done", "failed", "running", "queued", "total", "environment", "elapsed"]);
    expect(rule).toMatch(/^-+( +-+)+$/);
    expect(first?.split(/\s+/).slice(0, 3)).toEqual(["job_done", "completed", "100.0%"]);
    expect(second?.split(/\s+/).slice(0, 3)).toEqual(["job_running", "running", "50.0%"]);
  });

  it("status shows a completed job's metrics, without the rows' ids, pass@k at its repeats", async () => {
    const { code, stdout } = await edgegym(["jobs", "status", "job_done", "--url", url, "--token", "t"]);
    expect(code).toBe(0);
    expect(stdout).toContain("job_done  completed");
    expect(stdout).toMatch(/^mean\/reward +0\.5000$/m);
    expect(stdout).toMatch(/^pass@1\[avg-of-4\]\/accuracy +50%$/m);
    expect(stdout).toMatch(/^pass@4\/accuracy +100%$/m);
    expect(stdout).not.toContain("mean/id");
  });

  it("status of a running job says the metrics come once it completes", async () => {
    const { stdout } = await edgegym(["jobs", "status", "job_running", "--url", url, "--token", "t"]);
    expect(stdout).toContain("metrics once the job completes");
  });

  it("status --json into a reader that closes early ends quietly: exit 0, no EPIPE stack", async () => {
    const child = spawn(process.execPath, [BIN, "jobs", "status", "job_huge", "--json", "--url", url, "--token", "t"], { cwd: PROJECT_ROOT });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // `| head -c`: one chunk read, then the pipe is closed.
    const [first] = (await once(child.stdout, "data")) as [Buffer];
    expect(first.toString()).toContain('"id": "job_huge"');
    child.stdout.destroy();
    const [code] = (await once(child, "exit")) as [number | null];
    expect(stderr).not.toMatch(/EPIPE|Error|at /);
    expect(code).toBe(0);
  });
});
