// http/body-deadline.ts in plain Node: a JSON body read whole within its deadline, an upload paced by the time spent
// waiting on the client only (never on a slow reader).
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { paced, readWhole } from "../../http/body-deadline.js";
import { EdgegymError } from "../../protocol/index.js";

const bytes = (text: string) => new TextEncoder().encode(text);

/** A body that sends these chunks `gapMs` apart, then ends (or, with `stall`, sends nothing more and never ends). */
function body(chunks: string[], gapMs: number, stall = false): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    async pull(controller) {
      if (at > 0) await sleep(gapMs);
      if (at < chunks.length) return controller.enqueue(bytes(chunks[at++]!));
      if (stall) return new Promise(() => undefined);
      controller.close();
    },
  });
}

async function drain(stream: ReadableStream<Uint8Array>, pauseMs = 0): Promise<{ text: string; error?: unknown }> {
  const reader = stream.getReader();
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text };
      text += new TextDecoder().decode(value);
      if (pauseMs) await sleep(pauseMs);
    }
  } catch (error) {
    return { text, error };
  }
}

describe("readWhole", () => {
  it("reads a body that comes in time, whole", async () => {
    const read = await readWhole(body(['{"a":', " 1}"], 10), 100, 1000, 1000);
    expect(read.ok && new TextDecoder().decode(read.bytes)).toBe('{"a": 1}');
  });

  it("a body past its limit is too_large; one that stops sending is a timeout once the deadline passes", async () => {
    expect(await readWhole(body(["x".repeat(60), "x".repeat(60)], 1), 100, 1000, 1000)).toEqual({ ok: false, reason: "too_large" });
    const began = Date.now();
    expect(await readWhole(body(['{"never'], 1, true), 100, 300, 1000)).toEqual({ ok: false, reason: "timeout" });
    expect(Date.now() - began).toBeGreaterThanOrEqual(290);
  });

  it("a client gone mid-body is `ended`", async () => {
    const gone = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes("{"));
        controller.error(new Error("connection reset"));
      },
    });
    expect(await readWhole(gone, 100, 1000, 1000)).toEqual({ ok: false, reason: "ended" });
  });
});

describe("paced", () => {
  const pace = { firstByteMs: 300, windowMs: 300, minBytesPerSecond: 100 };

  it("a client that keeps the pace gets every byte through", async () => {
    const cuts: EdgegymError[] = [];
    const chunks = Array.from({ length: 10 }, (_, i) => `${i}`.repeat(20));
    const { text, error } = await drain(paced(body(chunks, 50), pace, (e) => cuts.push(e)));
    expect(error).toBeUndefined();
    expect(text).toBe(chunks.join(""));
    expect(cuts).toEqual([]);
  });

  it("a client below the minimum rate is cut with 408 body_timeout", async () => {
    const cuts: EdgegymError[] = [];
    const trickle = Array.from({ length: 100 }, () => "x");
    const { error } = await drain(paced(body(trickle, 40), pace, (e) => cuts.push(e)));
    expect(error).toBeInstanceOf(EdgegymError);
    expect((error as EdgegymError).status).toBe(408);
    expect((error as EdgegymError).code).toBe("body_timeout");
    expect(cuts).toHaveLength(1);
    expect(cuts[0]!.message).toContain("slower than 100 bytes/s");
  });

  it("no first byte in time is cut", async () => {
    const { error } = await drain(paced(body([], 0, true), pace, () => undefined));
    expect((error as EdgegymError).message).toContain("no byte of the upload arrived within 0.3 s");
  });

  it("a slow reader never makes the client late: only time spent waiting on the client counts", async () => {
    // 20 bytes each 400 ms is 50 bytes/s of wall time, half the minimum: counted by the clock, it would be cut.
    const chunks = Array.from({ length: 4 }, (_, i) => `${i}`.repeat(20));
    const { text, error } = await drain(
      paced(body(chunks, 1), pace, () => undefined),
      400,
    );
    expect(error).toBeUndefined();
    expect(text).toBe(chunks.join(""));
  });
});
