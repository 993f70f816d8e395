// Admission control under load (workerd): 2,000 concurrent /run calls against a limit of 500 in flight each get a
// well-formed answer at once (a record, or 503 with Retry-After), none reset or left hanging; then the TypeScript client,
// honouring Retry-After, gets all 2,000 records.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type DatasetRow, EdgegymClient } from "../../client/index.js";
import type { Local } from "../../local/emulation.js";
import { fixtureRows } from "../helpers/fixtures.js";
import { startTestLocal } from "../helpers/local.js";

const ENV = "example_single_tool_call";
const CALLS = 2000;
const LIMIT = 500;

let local: Local;
beforeAll(async () => {
  local = await startTestLocal({
    environments: [ENV],
    // Every model turn takes 200 ms, so the calls overlap and the limit is reached.
    simulator: { latencyMs: 200 },
    vars: {
      gateway: { MAX_IN_FLIGHT: String(LIMIT), RATE_LIMIT_PER_SECOND: "100000", RATE_LIMIT_BURST: "100000" },
    },
  });
});
afterAll(async () => {
  await local?.stop();
});

// On a shared 2-core machine 2,000 rollouts can take minutes; the test asserts answers, not speed.
vi.setConfig({ testTimeout: 600_000 });

const rows = () => fixtureRows(ENV) as DatasetRow[];

describe(`${CALLS} concurrent /run calls, ${LIMIT} admitted at a time`, () => {
  it("every call gets a record or a 503 with Retry-After: none reset, none timed out", async () => {
    const body = JSON.stringify(rows()[0]);
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: CALLS }, async () => {
        const begun = performance.now();
        try {
          const response = await fetch(`${local.url}/run?environment=${ENV}`, {
            method: "POST",
            headers: { authorization: `Bearer ${local.token}`, "content-type": "application/json" },
            body,
            signal: AbortSignal.timeout(120_000),
          });
          const json = (await response.json()) as { reward?: number; error?: { code: string } };
          return { status: response.status, retryAfter: response.headers.get("retry-after"), json, ms: performance.now() - begun };
        } catch (error) {
          return { status: 0, retryAfter: null, json: { error: { code: String(error) } }, ms: performance.now() - begun };
        }
      }),
    );
    const elapsed = performance.now() - started;
    const byStatus = new Map<number, number>();
    for (const answer of answers) byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 503);
    // Every one of the 2,000 is a record or a refusal: no transport error (status 0), nothing else.
    const other = answers.find((a) => a.status !== 200 && a.status !== 503);
    expect(other, JSON.stringify(Object.fromEntries(byStatus))).toBeUndefined();
    expect(ok.length + refused.length).toBe(CALLS);
    expect(ok.length).toBeGreaterThanOrEqual(LIMIT);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of ok) expect(typeof answer.json.reward).toBe("number");
    for (const answer of refused) {
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(answer.json.error?.code).toBe("over_capacity");
    }
    // Refusals come at once, not after waiting for a slot.
    const slowestRefusal = Math.max(...refused.map((a) => a.ms));
    process.stderr.write(
      `admission: ${ok.length} records, ${refused.length} refused in ${(elapsed / 1000).toFixed(1)} s; slowest refusal ${slowestRefusal.toFixed(0)} ms\n`,
    );
  });

  it("the TypeScript client gets all 2,000 records by honouring Retry-After", async () => {
    const client = new EdgegymClient({ url: local.url, token: local.token, maxRetries: 30 });
    const prompts = rows().slice(0, 4);
    const started = performance.now();
    // A GRPO-shaped batch: 4 prompts × a group of 500, all 2,000 sent at once.
    const result = await client.batch(prompts, { environment: ENV, groupSize: CALLS / prompts.length, concurrency: CALLS });
    const elapsed = performance.now() - started;
    expect(result.failures.map((f) => `${f.error.status} ${f.error.code}: ${f.error.message}`)).toEqual([]);
    expect(result.groups.map((group) => group.length)).toEqual(prompts.map(() => CALLS / prompts.length));
    const records = result.groups.flat();
    expect(records).toHaveLength(CALLS);
    expect(new Set(records.map((r) => r._ng_rollout_id)).size).toBe(CALLS);
    for (const record of records) expect(typeof record.reward).toBe("number");
    process.stderr.write(`client: ${records.length} records in ${(elapsed / 1000).toFixed(1)} s\n`);
  });
});
