// The agent as the `rollouts` consumer, in plain Node behind fake ports: what one batch reads, runs, acks and retries.
import { describe, expect, it } from "vitest";
import { decodeResult, jobKeys, type RolloutMessage, type WorkMessage } from "../../contracts/messages.js";
import { handleWork } from "../../functions/agent/consumer.js";
import { TASK_INDEX } from "../../protocol/index.js";
import { CLOUDFLARE_LIMITS } from "../../queues/cloudflare.js";
import { utf8Length } from "../../queues/queue.js";
import { batchOf, countingStore, fakePorts, modelResponse, receivedMessage, scriptedModel, simpleEnvironment } from "../helpers/agent-ports.js";

const ENVIRONMENT = "toy";
/** 60,000 CJK characters: about 180 KB of UTF-8, too large for any queue message, though under 128 K characters. */
const LARGE_TEXT = Array.from({ length: 60_000 }, (_, i) => String.fromCodePoint(0x4e00 + (i % 20_000))).join("");

function storedRow(task: number, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    responses_create_params: { input: `question ${task}` },
    agent_ref: { type: "responses_api_agents", name: `${ENVIRONMENT}_simple_agent` },
    [TASK_INDEX]: task,
    ...extra,
  });
}

const rollout = (jobId: string, task: number, repeat: number, place: Pick<RolloutMessage, "row" | "chunk_key">): WorkMessage => ({
  kind: "rollout",
  job_id: jobId,
  task_index: task,
  rollout_index: repeat,
  attempt: 1,
  ...place,
});

describe("a batch of rollouts whose row is too large to travel inline", () => {
  it("reads the inputs chunk from the bucket once, however many of the batch's rollouts need it", async () => {
    const chunkKey = jobKeys.inputsChunk("job_big", 0);
    const chunk = `${storedRow(0, { passage: LARGE_TEXT })}\n${storedRow(1)}\n`;
    expect(utf8Length(storedRow(0, { passage: LARGE_TEXT }))).toBeGreaterThan(CLOUDFLARE_LIMITS.maxMessageBytes);
    const store = countingStore({ [chunkKey]: chunk });
    const environment = simpleEnvironment(ENVIRONMENT);
    const ports = fakePorts({ environments: { [ENVIRONMENT]: environment }, model: scriptedModel(() => modelResponse({ text: "done" })), store });

    const repeats = 8;
    const messages = Array.from({ length: repeats }, (_, repeat) => receivedMessage(rollout("job_big", 0, repeat, { chunk_key: chunkKey })));
    await handleWork(batchOf(messages), ports);

    expect(store.gets.get(chunkKey)).toBe(1);
    expect(messages.map((m) => m.outcome)).toEqual(Array(repeats).fill("acked"));
    // Each rollout ran on the whole row: the environment verified the large field intact.
    expect(environment.verified).toHaveLength(repeats);
    for (const request of environment.verified) expect((request as { passage: string }).passage).toBe(LARGE_TEXT);
    // The records are larger than a message too: each went to the bucket, its result message carrying the key.
    const headers = ports.results.sent.map((text) => decodeResult(text).header);
    expect(headers.map((h) => h.rollout_index).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const header of headers) expect(store.objects.get(header.line_key!)).toContain(LARGE_TEXT);
  });
});

describe("a batch of two jobs whose Job objects answer differently", () => {
  it("one job's started() failing retries only its messages; the other job's run and are acked, and nothing throws", async () => {
    const environment = simpleEnvironment(ENVIRONMENT);
    const ports = fakePorts({
      environments: { [ENVIRONMENT]: environment },
      model: scriptedModel(() => modelResponse({ text: "done" })),
      job: (id) => ({
        started: async () => {
          if (id === "job_broken") throw new Error("Durable Object reset because its code was updated");
          return { numRepeats: 1 };
        },
      }),
    });
    const row = JSON.parse(storedRow(0));
    const broken = [0, 1].map((repeat) => receivedMessage(rollout("job_broken", 0, repeat, { row })));
    const healthy = [0, 1, 2].map((repeat) => receivedMessage(rollout("job_fine", 0, repeat, { row })));
    // Interleaved, as a queue delivers them.
    const batch = batchOf([healthy[0]!, broken[0]!, healthy[1]!, broken[1]!, healthy[2]!]);

    await expect(handleWork(batch, ports)).resolves.toBeUndefined();

    expect(healthy.map((m) => m.outcome)).toEqual(["acked", "acked", "acked"]);
    expect(broken.map((m) => m.outcome)).toEqual(["retried", "retried"]);
    const results = ports.results.sent.map((text) => decodeResult(text).header);
    expect(results.map((h) => [h.job_id, h.kind, h.rollout_index])).toEqual(
      expect.arrayContaining([
        ["job_fine", "rollout", 0],
        ["job_fine", "rollout", 1],
        ["job_fine", "rollout", 2],
      ]),
    );
    expect(results).toHaveLength(3);
    expect(environment.verified).toHaveLength(3);
  });
});

describe("a batch handed to the rollout runners", () => {
  const handing = (accept: (items: unknown[]) => Promise<{ accepted: number }>) => {
    const accepted: { shard: number; items: unknown[] }[] = [];
    const ports = fakePorts({
      environments: { [ENVIRONMENT]: simpleEnvironment(ENVIRONMENT) },
      model: scriptedModel(() => modelResponse({ text: "done" })),
      vars: { RUNNER_SHARDS: "2" },
      job: () => ({ started: async () => ({ numRepeats: 1, model: { returnTokenIds: true } }) }),
    });
    ports.runner = (shard) => ({
      accept: async (items) => {
        accepted.push({ shard, items });
        return accept(items);
      },
    });
    return { ports, accepted };
  };
  const row = { responses_create_params: { input: "q" } };

  it("stores every rollout with a runner (by shard, with its job's model choice) and acks the messages; none runs in the batch", async () => {
    const { ports, accepted } = handing(async (items) => ({ accepted: items.length }));
    const messages = [0, 1, 2, 3].map((task) => receivedMessage(rollout("job_a", task, 0, { row }), 2));
    await handleWork(batchOf(messages), ports);

    expect(messages.map((m) => m.outcome)).toEqual(["acked", "acked", "acked", "acked"]);
    expect(accepted.map((a) => a.shard).sort()).toEqual([0, 1]);
    const items = accepted.flatMap((a) => a.items) as { message: RolloutMessage; attempts: number; model?: unknown }[];
    expect(items.map((i) => i.message.task_index).sort()).toEqual([0, 1, 2, 3]);
    expect(items.every((i) => i.attempts === 2 && JSON.stringify(i.model) === '{"returnTokenIds":true}')).toBe(true);
    expect(ports.results.sent).toHaveLength(0);
  });

  it("retries the messages of a runner that did not take them; the other shard's are acked", async () => {
    const { ports } = handing(async (items) => {
      if ((items[0] as { message: RolloutMessage }).message.task_index % 2 === 0) throw new Error("runner unavailable");
      return { accepted: items.length };
    });
    // task*31 + repeat: even tasks land on shard 0, odd ones on shard 1.
    const messages = [0, 1, 2, 3].map((task) => receivedMessage(rollout("job_b", task, 0, { row })));
    await handleWork(batchOf(messages), ports);
    expect(messages.map((m) => m.outcome)).toEqual(["retried", "acked", "retried", "acked"]);
  });
});

describe("an expand message with rollout runners", () => {
  it("hands every (row, repeat) of the chunk straight to the runners, counts them as started, and acks; no rollout message is sent", async () => {
    const chunkKey = jobKeys.inputsChunk("job_x", 0);
    const store = countingStore({ [chunkKey]: `${storedRow(0)}\n${storedRow(1)}\n` });
    const started: number[] = [];
    const accepted: unknown[] = [];
    const ports = fakePorts({
      environments: { [ENVIRONMENT]: simpleEnvironment(ENVIRONMENT) },
      model: scriptedModel(() => modelResponse({ text: "done" })),
      store,
      vars: { RUNNER_SHARDS: "3" },
      job: () => ({
        started: async (n) => {
          started.push(n);
          return { numRepeats: 4 };
        },
      }),
    });
    ports.runner = () => ({
      accept: async (items) => {
        accepted.push(...items);
        return { accepted: items.length };
      },
    });
    const message = receivedMessage<WorkMessage>({
      kind: "expand",
      job_id: "job_x",
      chunk_key: chunkKey,
      attempt: 1,
      only: [
        [0, 1],
        [1, 0],
        [1, 3],
      ],
    });
    await handleWork(batchOf([message]), ports);

    expect(message.outcome).toBe("acked");
    expect(ports.rollouts.sent).toHaveLength(0);
    const pairs = (accepted as { message: RolloutMessage }[]).map((i) => [i.message.task_index, i.message.rollout_index]).sort();
    expect(pairs).toEqual([
      [0, 1],
      [1, 0],
      [1, 3],
    ]);
    // The batch's own call (no rollout message in it), the check before the slice (still wanted?), then the 3 handed over.
    expect(started).toEqual([0, 0, 3]);
  });
});

describe("a batch of expand messages only", () => {
  /** A job whose reads (wanted) and reports (started) are told apart; `cancelAfter` wanted() calls, it answers cancelled. */
  const counting = (vars: Record<string, string>, cancelAfter = Number.POSITIVE_INFINITY) => {
    const chunkKey = jobKeys.inputsChunk("job_e", 0);
    const calls = { wanted: 0, started: [] as number[] };
    const ports = fakePorts({
      environments: { [ENVIRONMENT]: simpleEnvironment(ENVIRONMENT) },
      model: scriptedModel(() => modelResponse({ text: "done" })),
      store: countingStore({ [chunkKey]: `${storedRow(0)}\n${storedRow(1)}\n` }),
      vars,
      job: () => ({
        wanted: async () => (++calls.wanted > cancelAfter ? null : { numRepeats: 2 }),
        started: async (n) => {
          calls.started.push(n);
          return { numRepeats: 2 };
        },
      }),
    });
    const accepted: unknown[] = [];
    if (vars.RUNNER_SHARDS !== "0")
      ports.runner = () => ({
        accept: async (items) => {
          accepted.push(...items);
          return { accepted: items.length };
        },
      });
    const message = receivedMessage<WorkMessage>({ kind: "expand", job_id: "job_e", chunk_key: chunkKey, attempt: 1 });
    return { ports, calls, message, accepted };
  };

  it("in the batch: asks the job wanted() once, reports nothing started, and queues its 4 rollouts", async () => {
    const { ports, calls, message } = counting({ RUNNER_SHARDS: "0" });
    await handleWork(batchOf([message]), ports);
    expect(message.outcome).toBe("acked");
    expect(calls).toEqual({ wanted: 1, started: [] });
    expect(ports.rollouts.sent).toHaveLength(4);
  });

  it("into runners: reads wanted() for the batch and the slice, then reports the 4 handed over as started", async () => {
    const { ports, calls, message, accepted } = counting({ RUNNER_SHARDS: "1" });
    await handleWork(batchOf([message]), ports);
    expect(message.outcome).toBe("acked");
    expect(accepted).toHaveLength(4);
    expect(calls).toEqual({ wanted: 2, started: [4] });
  });

  it("into runners, cancelled before its slice: hands nothing over and reports nothing started", async () => {
    const { ports, calls, message, accepted } = counting({ RUNNER_SHARDS: "1" }, 1);
    await handleWork(batchOf([message]), ports);
    expect(message.outcome).toBe("acked");
    expect(accepted).toHaveLength(0);
    expect(calls).toEqual({ wanted: 2, started: [] });
  });
});
