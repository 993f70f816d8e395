// POST /run/batch: many rows in one request (a GRPO group, a whole step), each run as /run runs it, every record streamed
// back as NDJSON the moment its rollout ends, in the order they end.
import type { Context } from "hono";
import { z } from "zod";
import { readJson } from "../../http/errors.js";
import { parseOr400, RunRow } from "../../protocol/index.js";
import type { GatewayContext } from "./caller.js";
import { RunQuery, runOne, runOptions } from "./run.js";
import { admitOne } from "./slots.js";

/** Rows in one batch at most: a GRPO step of 64 prompts × 16. A larger step is several batches. */
export const MAX_BATCH_ROWS = 1024;

export const BatchQuery = RunQuery.extend({
  /** Rollouts of this batch in flight at once (each also holds an admission slot while it runs); default 64. */
  concurrency: z.coerce.number().int().min(1).max(256).optional(),
});

const BatchBody = z.strictObject({ rows: z.array(RunRow).min(1).max(MAX_BATCH_ROWS) });

/**
 * One line per row, as soon as it ends: `{"index": i, "record": {...}}`, or `{"index": i, "error": {status, code,
 * message, retry_after_seconds?}}` for a failure answered as an error (`failures=error`, the default for rows without
 * `_ng_rollout_index`, as on /run) or a row refused admission (429/503: retry it). The last line is `{"done": true,
 * "rows": n, "records": r, "errors": e}`; a stream without it was cut, and its missing rows never ran or never ended.
 */
export type BatchLine =
  | { index: number; record: Record<string, unknown> }
  | { index: number; error: { status: number; code: string; message: string; retry_after_seconds?: number } }
  | { done: true; rows: number; records: number; errors: number };

export async function runBatch(c: Context<GatewayContext>): Promise<Response> {
  const query = parseOr400(BatchQuery, c.req.query(), "run query");
  // Every row is checked before any runs: a bad row 7 is a 400 naming rows.7, and nothing started.
  const { rows } = parseOr400(BatchBody, await readJson(c), "batch");
  const shared = runOptions(c, query);
  const encoder = new TextEncoder();
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  let gone = false;
  const send = async (line: BatchLine) => {
    if (gone) return;
    // A caller that hung up stops the batch: rows not yet started never start (those running end on their own).
    await writer.write(encoder.encode(`${JSON.stringify(line)}\n`)).catch(() => {
      gone = true;
    });
  };
  const counts = { records: 0, errors: 0 };
  let next = 0;
  async function lane(): Promise<void> {
    while (!gone && next < rows.length) {
      const index = next++;
      const row = rows[index] as RunRow;
      const slot = await admitOne(c);
      if (!slot.ok) {
        counts.errors++;
        const { status, code, message } = slot.error;
        await send({ index, error: { status, code, message, retry_after_seconds: slot.retryAfterSeconds } });
        continue;
      }
      try {
        const result = await runOne(c, row, shared, query.failures);
        if (result.ok) counts.records++;
        else counts.errors++;
        const { status, code, message } = result.ok ? { status: 0, code: "", message: "" } : result.error;
        await send(result.ok ? { index, record: result.record } : { index, error: { status, code, message } });
      } finally {
        slot.release();
      }
    }
  }
  const lanes = Array.from({ length: Math.min(query.concurrency ?? 64, rows.length) }, lane);
  const finished = Promise.all(lanes)
    .then(() => send({ done: true, rows: rows.length, ...counts }))
    .finally(() => writer.close().catch(() => undefined));
  try {
    c.executionCtx.waitUntil(finished);
  } catch {
    // No execution context (a test calling the app directly): the stream's reader keeps it going.
  }
  return new Response(readable, { headers: { "Content-Type": "application/x-ndjson; charset=utf-8", "Cache-Control": "no-store" } });
}
