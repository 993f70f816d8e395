// The async feed, GET /v1/jobs/:id/groups: whole groups, each to one consumer of a cursor, with the job's policy version;
// stale groups dropped; long polling bounded; bad queries 400 with the field.
import { spawn } from "node:child_process";
import path from "node:path";
import { EdgegymClient, type FeedGroup } from "edgegym/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { INTEGRATIONS } from "../integrations/agent-server.js";
import { createJob, waitForJob } from "../helpers/jobs.js";
import { gatewayFetch, startTestLocal } from "../helpers/local.js";

const ENV = "example_single_tool_call";
const REPEATS = 4;

interface Group {
  task_index: number;
  sequence: number;
  policy_version?: number;
  rollouts: { _ng_task_index?: number; _ng_rollout_index?: number; reward?: number; rollout_id?: string }[];
  failures: { _ng_task_index?: number; _ng_rollout_index?: number; failure_class?: string }[];
}
interface GroupsAnswer {
  data: Group[];
  dropped: number;
  pending: number;
  incomplete: number;
  status: string;
  finished: boolean;
}

let local: Local & { token?: string };
beforeAll(async () => {
  local = await startTestLocal({
    environments: [ENV],
    // Rollouts land at scattered times, and about one model call in six is refused (400): groups mix scores and failures.
    simulator: { latencyMs: { min: 20, max: 120 }, faults: { errorRate: 0.15, errorStatus: 400 } },
  });
});
afterAll(async () => {
  await local?.stop();
});

function rows(n: number): string {
  return Array.from({ length: n }, (_, i) => JSON.stringify({ responses_create_params: { input: `what's the weather in Porto on day ${i}?` } })).join("\n");
}

async function groups(id: string, query: Record<string, string>): Promise<{ status: number; body: GroupsAnswer & Record<string, unknown> }> {
  const response = await gatewayFetch(`${local.url}/v1/jobs/${id}/groups?${new URLSearchParams(query)}`);
  return { status: response.status, body: (await response.json()) as GroupsAnswer & Record<string, unknown> };
}

async function newJob(n: number, extra: Record<string, string> = {}): Promise<string> {
  const created = await createJob(local.url, rows(n), { environment: ENV, num_repeats: String(REPEATS), ...extra });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

/** Pulls a cursor until the feed says it is finished (bounded). */
async function drain(id: string, query: Record<string, string>): Promise<Group[]> {
  const taken: Group[] = [];
  for (let calls = 0; calls < 200; calls++) {
    const { status, body } = await groups(id, query);
    expect(status).toBe(200);
    taken.push(...body.data);
    if (body.finished) return taken;
  }
  throw new Error("the feed never said finished");
}

function expectWhole(group: Group): void {
  const repeats = [...group.rollouts.map((record) => record._ng_rollout_index), ...group.failures.map((record) => record._ng_rollout_index)].sort();
  expect(repeats).toEqual([0, 1, 2, 3]);
  for (const record of group.rollouts) expect(record._ng_task_index).toBe(group.task_index);
  for (const record of group.failures) expect(record._ng_task_index).toBe(group.task_index);
}

describe("GET /v1/jobs/:id/groups", () => {
  it("hands each whole group to one of three consumers sharing a cursor, tagged with the job's policy version", async () => {
    const id = await newJob(12, { policy_version: "7" });
    const consumers = await Promise.all([0, 1, 2].map(() => drain(id, { cursor: "trainer", limit: "2", wait: "5" })));
    const all = consumers.flat();
    expect(all.map((group) => group.task_index).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    for (const group of all) {
      expectWhole(group);
      expect(group.policy_version).toBe(7);
    }
    // The records are the job's own: the same rewards as the downloaded rollouts.
    const download = await gatewayFetch(`${local.url}/v1/jobs/${id}/rollouts`);
    const lines = (await download.text())
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Group["rollouts"][number]);
    const fed = all.flatMap((group) => group.rollouts);
    expect(fed.length).toBe(lines.length);
    const rewardOf = new Map(lines.map((line) => [`${line._ng_task_index}:${line._ng_rollout_index}`, line.reward]));
    for (const record of fed) expect(record.reward).toBe(rewardOf.get(`${record._ng_task_index}:${record._ng_rollout_index}`));
    expect(all.some((group) => group.failures.length > 0)).toBe(true);

    // The cursor is spent; another cursor starts from the first group and gets them all again, in completion order.
    const spent = await groups(id, { cursor: "trainer", wait: "0" });
    expect(spent.body).toMatchObject({ data: [], pending: 0, finished: true, status: "completed" });
    const again = await groups(id, { cursor: "eval", limit: "256", wait: "0" });
    expect(again.body.data.map((group) => group.sequence)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const info = (await (await gatewayFetch(`${local.url}/v1/jobs/${id}`)).json()) as { policy_version?: number };
    expect(info.policy_version).toBe(7);
  });

  it("waits for a full batch (min_groups) while the job runs, and answers what there is when the wait is over", async () => {
    const id = await newJob(6, { policy_version: "1" });
    const first = await groups(id, { cursor: "batch", limit: "6", min_groups: "6", wait: "30" });
    expect(first.status).toBe(200);
    expect(first.body.data.length).toBe(6);
    await waitForJob(local.url, id);
    const started = Date.now();
    const empty = await groups(id, { cursor: "batch", wait: "10" });
    // Nothing more can come: it answers at once, not after the wait.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(empty.body).toMatchObject({ data: [], finished: true });
  });

  it("drops groups older than the trainer allows, counted, and never hands them out on that cursor", async () => {
    const id = await newJob(5, { policy_version: "2" });
    await waitForJob(local.url, id);
    const stale = await groups(id, { cursor: "late", current_version: "5", max_staleness: "2", wait: "0" });
    expect(stale.body).toMatchObject({ data: [], dropped: 5, pending: 0, finished: true });
    const after = await groups(id, { cursor: "late", wait: "0" });
    expect(after.body).toMatchObject({ data: [], dropped: 0 });
    // Within the staleness allowed (5 − 3 = 2): handed out.
    const fresh = await groups(id, { cursor: "fresh", current_version: "5", max_staleness: "3", limit: "5", wait: "0" });
    expect(fresh.body.data.length).toBe(5);
    expect(fresh.body.dropped).toBe(0);
    const floor = await groups(id, { cursor: "floor", min_version: "3", wait: "0" });
    expect(floor.body.dropped).toBe(5);
  });

  it("refuses a bad query with the field that is wrong, and an unknown job with 404", async () => {
    const id = await newJob(1);
    const cases: [Record<string, string>, string][] = [
      [{ limit: "0" }, "limit"],
      [{ wait: "31" }, "wait"],
      [{ cursor: "a/b" }, "cursor"],
      [{ current_version: "3" }, "max_staleness"],
      [{ min_version: "-1" }, "min_version"],
      [{ limit: "2", min_groups: "3" }, "min_groups"],
      [{ since: "1" }, ""],
    ];
    for (const [query, field] of cases) {
      const { status, body } = await groups(id, query);
      expect(status, JSON.stringify(query)).toBe(400);
      const issues = (body.error as { issues: { path: (string | number)[] }[] }).issues;
      expect(
        issues.map((issue) => issue.path.join(".")),
        JSON.stringify(query),
      ).toContain(field);
    }
    const unknown = await gatewayFetch(`${local.url}/v1/jobs/job_nothere123/groups?wait=0`);
    expect(unknown.status).toBe(404);
  });
});

// A trainer's loop through the Python client (standard library only), as integrations/README.md shows it.
const PYTHON_FEED = `
import json, sys
from edgegym_client import Client
url, token, environment = sys.argv[1:4]
with Client(url, token) as client:
    rows = [{"responses_create_params": {"input": f"weather in Lisbon on day {i}?"}} for i in range(5)]
    job = client.create_job(rows, environment=environment, num_repeats=3, policy_version=4)
    seen = []
    for batch in client.feed_groups(job["id"], cursor="py", limit=2, wait=10, current_version=5, max_staleness=1):
        seen += [(group["task_index"], group["policy_version"], len(group["rollouts"]) + len(group["failures"])) for group in batch]
    print(json.dumps(sorted(seen)))
`;

describe("the clients' feed", () => {
  it("TypeScript: two consumers of one cursor through jobs.feed share out every group of a job once", async () => {
    const client = new EdgegymClient({ url: local.url, ...(local.token ? { token: local.token } : {}) });
    const rowsOf = Array.from({ length: 8 }, (_, i) => ({ responses_create_params: { input: `weather in Faro on day ${i}?` } }));
    const job = await client.jobs.create({ rows: rowsOf }, { environment: ENV, numRepeats: 2, policyVersion: 11 });
    const consume = async () => {
      const mine: FeedGroup[] = [];
      for await (const batch of client.jobs.feed(job.id, { cursor: "ts", limit: 3, waitSeconds: 5 })) mine.push(...batch);
      return mine;
    };
    const [a, b] = await Promise.all([consume(), consume()]);
    const tasks = [...a!, ...b!].map((group) => group.task_index).sort((x, y) => x - y);
    expect(tasks).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const group of [...a!, ...b!]) {
      expect(group.policy_version).toBe(11);
      expect(group.rollouts.length + group.failures.length).toBe(2);
    }
  });

  it("Python: create_job(policy_version=…) and feed_groups until finished", async () => {
    const child = spawn("python3", ["-c", PYTHON_FEED, local.url, local.token ?? "", ENV], {
      env: { ...process.env, PYTHONPATH: path.join(INTEGRATIONS, "python"), PYTHONDONTWRITEBYTECODE: "1" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toEqual([0, 1, 2, 3, 4].map((task) => [task, 4, 3]));
  });
});
