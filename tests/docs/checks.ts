// The assertions the documented commands' entries share: exit codes, files the README says a command leaves, JSON it prints.
import { existsSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import type { Result } from "./clone.js";
import type { DocContext } from "./context.js";
import { jsonl } from "./clone.js";

/** The command ended as the README says it does; its output is in the failure message. */
export function exits(result: Result, code: number): Result {
  expect(result.code, `exit ${result.code}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(code);
  return result;
}

export function exists(ctx: DocContext, ...files: string[]): void {
  for (const file of files) expect(existsSync(path.join(ctx.dir, file)), `${file} should exist`).toBe(true);
}

export function lines(ctx: DocContext, file: string): Record<string, unknown>[] {
  exists(ctx, file);
  return jsonl(ctx.dir, file);
}

/** The records of a collected output plus its failures file (if any): every rollout accounted for. */
export function rollouts(ctx: DocContext, output: string): number {
  const failures = output.replace(/\.jsonl$/, ".failures.jsonl");
  return lines(ctx, output).length + (existsSync(path.join(ctx.dir, failures)) ? lines(ctx, failures).length : 0);
}

/** A JSON answer (curl's stdout, a CLI's --json). */
export function json(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`not JSON: ${text.slice(0, 2000)}`);
  }
}

/** `fetch` against the suite's gateway with the dev token. */
export async function api(ctx: DocContext, route: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const { url, token } = await ctx.gateway();
  const response = await fetch(`${url}${route}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
  const body = json(await response.text());
  expect(response.status, JSON.stringify(body)).toBeLessThan(300);
  return body;
}

/** Waits until the job's status is final; its status. */
export async function settled(ctx: DocContext, id: string, timeoutMs = 120_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await api(ctx, `/v1/jobs/${id}`);
    if (job.status !== "running" && job.status !== "queued") return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status} after ${timeoutMs} ms: ${JSON.stringify(job.counts)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A job on the suite's gateway, created through the API (for commands that act on one: cancel, resume). */
export async function createJob(ctx: DocContext, environment: string, numRepeats: number): Promise<string> {
  const job = await api(ctx, `/v1/jobs?environment=${environment}&num_repeats=${numRepeats}`, {
    method: "POST",
    headers: { "content-type": "application/x-ndjson" },
    body: ctx.example(environment),
  });
  return String(job.id);
}

/** POSTs a row to the NeMo Gym agent server on its default port, as NeMo Gym's client does. */
export async function agentRun(row: Record<string, unknown>, port = 11000): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${port}/run`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(row) });
  return { status: response.status, body: json(await response.text()) };
}

/** The first row of an environment's example data, with NeMo Gym's agent_ref naming it. */
export function agentRow(ctx: DocContext, environment: string): Record<string, unknown> {
  const row = JSON.parse(ctx.example(environment).split("\n")[0] ?? "{}") as Record<string, unknown>;
  return { ...row, agent_ref: { type: "responses_api_agents", name: `${environment}_simple_agent` } };
}
