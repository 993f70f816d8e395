// Batched /run (POST /run/batch): rows out in one request, each record read back from the NDJSON stream as its rollout
// ends; rows refused admission (429/503) or lost with a cut stream go again, within the connection's retry bounds.
import type { DatasetRow } from "../protocol/index.js";
import { type Connection, EdgegymClientError, retryDelayMs } from "./http.js";

export interface RunBatchOptions {
  environment?: string;
  maxSteps?: number;
  returnTokenIds?: boolean;
  /** Rollouts of one request in flight at once on the gateway (1-256, default 64). */
  concurrency?: number;
  signal?: AbortSignal;
}

/** One row's outcome, as it ends: its index in `rows`, and its record or its error (after any retries). */
export type BatchOutcome<R> = { index: number; record: R } | { index: number; error: EdgegymClientError };

type Line =
  | { index: number; record: Record<string, unknown> }
  | { index: number; error: { status: number; code: string; message: string; retry_after_seconds?: number } }
  | { done: true };

/** The gateway's row limit per request (functions/gateway/run-batch.ts MAX_BATCH_ROWS). */
const MAX_ROWS = 1024;
const RETRYABLE = new Set([429, 503]);

async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<Line> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const text = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (text.trim() !== "") yield JSON.parse(text) as Line;
      newline = buffered.indexOf("\n");
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/**
 * Every row's outcome, in the order rollouts end. A row the gateway refused admission, or whose line never came (the
 * stream cut), is sent again after the longest Retry-After asked, at most `maxRetries` times (the connection's, default
 * 10): like /run, a rollout lost with its connection may run twice, and only its last record comes back.
 */
export async function* runBatch<R>(connection: Connection, rows: DatasetRow[], options: RunBatchOptions = {}): AsyncGenerator<BatchOutcome<R>> {
  const query = new URLSearchParams({
    ...(options.environment ? { environment: options.environment } : {}),
    ...(options.maxSteps ? { max_steps: String(options.maxSteps) } : {}),
    ...(options.returnTokenIds !== undefined ? { return_token_ids: String(options.returnTokenIds) } : {}),
    ...(options.concurrency ? { concurrency: String(options.concurrency) } : {}),
  }).toString();
  const maxRetries = connection.options.maxRetries ?? 10;
  let pending = rows.map((_, index) => index);
  for (let retry = 0; pending.length > 0; retry++) {
    const again: number[] = [];
    let wait: number | undefined;
    for (let start = 0; start < pending.length; start += MAX_ROWS) {
      const part = pending.slice(start, start + MAX_ROWS);
      const response = await connection.send({
        method: "POST",
        path: `/run/batch${query ? `?${query}` : ""}`,
        body: JSON.stringify({ rows: part.map((index) => rows[index]) }),
        contentType: "application/json",
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const open = new Set(part);
      for await (const line of lines(response.body ?? new ReadableStream())) {
        if ("done" in line) continue;
        const index = part[line.index];
        if (index === undefined || !open.delete(index)) continue;
        if ("record" in line) yield { index, record: line.record as R };
        else if (RETRYABLE.has(line.error.status) && retry < maxRetries) {
          again.push(index);
          wait = Math.max(wait ?? 0, (line.error.retry_after_seconds ?? 0) * 1000);
        } else yield { index, error: new EdgegymClientError(line.error.status, line.error.code, line.error.message) };
      }
      // Rows whose line never came: the stream was cut (the gateway restarted, the connection dropped).
      for (const index of open) {
        if (retry < maxRetries) again.push(index);
        else yield { index, error: new EdgegymClientError(0, "stream_cut", "the batch's answer ended before this row's record came") };
      }
    }
    pending = again;
    if (pending.length > 0) {
      const delay = retryDelayMs(retry + 1, wait, connection.options) ?? connection.options.maxDelayMs ?? 60_000;
      await sleep(delay, options.signal);
    }
  }
}
