// Texts whose UTF-8 is far longer than their characters, through the whole queue path of the local emulation: rows too
// large for a queue message go by their inputs chunk, records by a bucket pointer, and every byte comes back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { CLOUDFLARE_LIMITS } from "../../queues/cloudflare.js";
import { createJob, jobLines, waitForJob } from "../helpers/jobs.js";
import { gatewayFetch, startTestLocal } from "../helpers/local.js";

/** 60,000 CJK ideographs: about 180 KB of UTF-8, though under 128 K characters. */
const CJK = Array.from({ length: 60_000 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20_902))).join("");
/** 60,000 emoji, each a surrogate pair: 240 KB of UTF-8. */
const EMOJI = Array.from({ length: 60_000 }, (_, i) => String.fromCodePoint(0x1f600 + (i % 80))).join("");
const bytes = (text: string) => Buffer.byteLength(text, "utf8");

let local: Local;
beforeAll(async () => {
  local = await startTestLocal({
    environments: ["string_match"],
    // The emoji reply is 131,250 tokens: a context window that holds it, so it is answered whole.
    simulator: { maxModelLen: 1_000_000 },
    vars: { agent: { RETRY_BASE_SECONDS: "0" }, modelProxy: { MODEL_MAX_RETRIES: "0" } },
  });
});
afterAll(async () => {
  await local?.stop();
});

describe("a job of 60,000-character CJK rows and 60,000-emoji answers", () => {
  it("completes with every record intact, byte for byte", async () => {
    expect(CJK.length).toBeLessThan(128 * 1024);
    expect(bytes(CJK)).toBeGreaterThan(CLOUDFLARE_LIMITS.maxMessageBytes);
    const row = (expected: string) => ({
      responses_create_params: { input: "Repeat the passage exactly." },
      expected_answer: expected,
      extraction_mode: "full_response",
      case_sensitive: true,
    });
    const repeats = 2;
    // Every model call answers with the emoji: the row that expects them scores 1, the CJK row 0.
    for (let i = 0; i < 2 * repeats; i++) local.simulator!.script({ content: EMOJI });

    const created = await createJob(local.url, `${JSON.stringify(row(CJK))}\n${JSON.stringify(row(EMOJI))}\n`, {
      environment: "string_match",
      num_repeats: String(repeats),
    });
    expect(created.status).toBe(201);
    const info = await waitForJob(local.url, created.body.id);
    expect(info.status).toBe("completed");
    expect(info.counts).toMatchObject({ total: 4, done: 4, failed: 0 });

    const records = await jobLines(local.url, info.id, "rollouts");
    expect(records.map((r) => [r._ng_task_index, r._ng_rollout_index])).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ]);
    for (const record of records) {
      const expected = record._ng_task_index === 0 ? CJK : EMOJI;
      expect(record.expected_answer === expected, "the task field came back whole").toBe(true);
      expect(bytes(record.expected_answer)).toBe(bytes(expected));
      const answer = record.response.output.at(-1).content[0].text as string;
      expect(answer === EMOJI, "the model's answer came back whole").toBe(true);
      expect(record.extracted_answer === EMOJI).toBe(true);
      expect(record.reward).toBe(record._ng_task_index === 1 ? 1 : 0);
    }
    // Each record was too large for a result message: it went to the bucket, the message carried its key.
    const bucket = await local.miniflare.getR2Bucket("BUCKET", "writer");
    expect((await bucket.list({ prefix: `jobs/${info.id}/payloads/` })).objects).toHaveLength(4);
    expect(info.metrics!.string_match!.agent_metrics["mean/reward"]).toBe(0.5);
  });
});

describe("GET /v1/jobs", () => {
  it("pages newest first with limit and after, each job once, has_more false on the last page", async () => {
    const small = JSON.stringify({ responses_create_params: { input: "Say hi." }, expected_answer: "hi" });
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await createJob(local.url, small, { environment: "string_match" });
      made.push(created.body.id);
      // Ids carry their creation time in milliseconds: one apart, their order is their creation order.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const listed: string[] = [];
    const lastIds: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 20; page++) {
      const query = new URLSearchParams({ limit: "1", ...(after ? { after } : {}) });
      const body = (await (await gatewayFetch(`${local.url}/v1/jobs?${query}`)).json()) as {
        object: string;
        data: { id: string }[];
        has_more: boolean;
        last_id?: string;
      };
      expect(body.object).toBe("list");
      listed.push(...body.data.map((job) => job.id));
      if (!body.has_more) break;
      lastIds.push(body.last_id!);
      after = body.last_id;
    }
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.slice(0, 3)).toEqual([...made].reverse());
    expect(lastIds.slice(0, 3)).toEqual([...made].reverse());
    for (const id of made) await waitForJob(local.url, id);
  });
});
