// Driving the jobs API from tests: create, wait, download.
import { gatewayFetch } from "./local.js";
import { setTimeout as sleep } from "node:timers/promises";

export interface JobInfoLike {
  id: string;
  status: string;
  counts: { total: number; queued: number; running: number; done: number; failed: number; failed_by_class: Record<string, number> };
  stalled?: { since: number; heals: number; max_heals: number };
  heals?: number;
  stalls?: { at: number; missing: number; action: string }[];
  metrics?: Record<string, { agent_metrics: Record<string, unknown>; key_metrics: Record<string, unknown> }>;
  skipped_lines?: { line: number; field: string; message: string }[];
}

export async function createJob(url: string, jsonl: string, query: Record<string, string>): Promise<{ status: number; body: any }> {
  const response = await gatewayFetch(`${url}/v1/jobs?${new URLSearchParams(query)}`, {
    method: "POST",
    headers: { "content-type": "application/x-ndjson" },
    body: jsonl,
  });
  return { status: response.status, body: await response.json() };
}

export async function jobInfo(url: string, id: string): Promise<JobInfoLike> {
  const response = await gatewayFetch(`${url}/v1/jobs/${id}`);
  if (!response.ok) throw new Error(`GET /v1/jobs/${id} answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
  return (await response.json()) as JobInfoLike;
}

/** Polls until the job leaves `running` (bounded: fails the test rather than hang). */
export async function waitForJob(url: string, id: string, timeoutMs = 45_000): Promise<JobInfoLike> {
  const deadline = Date.now() + timeoutMs;
  let refused = 0;
  for (;;) {
    let info: JobInfoLike;
    try {
      info = await jobInfo(url, id);
      refused = 0;
    } catch (error) {
      // A kept-alive connection workerd closed under load ("other side closed"), or a passing error: poll again, a few times at most.
      if (++refused > 5) throw error;
      await sleep(200);
      continue;
    }
    if (info.status !== "running") return info;
    if (Date.now() > deadline) throw new Error(`job ${id} still running after ${timeoutMs} ms: ${JSON.stringify(info.counts)}`);
    await sleep(100);
  }
}

export async function jobLines(url: string, id: string, kind: "rollouts" | "failures"): Promise<Record<string, any>[]> {
  const text = await (await gatewayFetch(`${url}/v1/jobs/${id}/${kind}`)).text();
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>);
}
