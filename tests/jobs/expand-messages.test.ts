// Expand messages for a resume or a heal: however many rollouts are missing, each message fits the queue, and together
// they name each missing rollout exactly once.
import { describe, expect, it } from "vitest";
import { CHUNK_ROWS } from "../../contracts/jobs.js";
import { expandMessages } from "../../ledger/expand.js";
import { CLOUDFLARE_LIMITS } from "../../queues/cloudflare.js";
import { ENVELOPE_BYTES, messageBytes } from "../../queues/queue.js";

const ROOM = CLOUDFLARE_LIMITS.maxMessageBytes - ENVELOPE_BYTES;

function job(rows: number, repeats: number, firstTask = 0) {
  const tasks = Array.from({ length: rows }, (_, i) => firstTask + i);
  const chunk_keys = Array.from({ length: Math.ceil(rows / CHUNK_ROWS) }, (_, i) => `jobs/job_x/inputs/${String(i).padStart(6, "0")}.jsonl`);
  return { id: "job_x", tasks, chunk_keys, num_repeats: repeats };
}

describe("expandMessages", () => {
  it("splits a chunk's long list of missing rollouts over messages within the queue's limit, each rollout once", () => {
    // Issue 21's shape: 40 rows × 1,000 repeats in one chunk, 25,000 of them missing.
    const config = job(40, 1000);
    const missing: [number, number][] = [];
    for (const task of config.tasks) for (let r = 0; r < 1000; r++) if ((task * 1000 + r) % 8 < 5) missing.push([task, r]);
    expect(missing).toHaveLength(25_000);
    expect(messageBytes({ kind: "expand", job_id: "job_x", chunk_key: config.chunk_keys[0], only: missing, attempt: 2 })).toBeGreaterThan(
      CLOUDFLARE_LIMITS.maxMessageBytes,
    );
    const messages = expandMessages(config, missing, 2, ROOM);
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages) {
      expect(messageBytes(message)).toBeLessThanOrEqual(CLOUDFLARE_LIMITS.maxMessageBytes);
      expect(message).toMatchObject({ kind: "expand", job_id: "job_x", chunk_key: config.chunk_keys[0], attempt: 2 });
    }
    const listed = messages.flatMap((m) => m.only ?? []).map(([t, r]) => `${t}:${r}`);
    expect(listed).toHaveLength(25_000);
    expect(new Set(listed)).toEqual(new Set(missing.map(([t, r]) => `${t}:${r}`)));
  });

  it("names a chunk wanted whole by its key alone, and lists only the chunks partly missing", () => {
    const config = job(250, 4);
    const missing: [number, number][] = [];
    for (const task of config.tasks) for (let r = 0; r < 4; r++) if (task < 200 || r === 0) missing.push([task, r]);
    const messages = expandMessages(config, missing, 3, ROOM);
    expect(messages).toEqual([
      { kind: "expand", job_id: "job_x", chunk_key: config.chunk_keys[0], attempt: 3 },
      { kind: "expand", job_id: "job_x", chunk_key: config.chunk_keys[1], attempt: 3 },
      { kind: "expand", job_id: "job_x", chunk_key: config.chunk_keys[2], attempt: 3, only: config.tasks.slice(200).map((t) => [t, 0]) },
    ]);
  });
});
