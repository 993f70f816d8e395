// A finished rollout (or failure) onto the `results` queue: serialized once into its JSONL line, by bucket pointer when large.
import { encodeResult, jobKeys, type ResultHeader } from "../../contracts/messages.js";
import { summarize } from "../../metrics/summary.js";
import { ENVELOPE_BYTES, fitsInBytes } from "../../queues/queue.js";
import type { AgentPorts } from "./ports.js";

export type ResultBase = Omit<ResultHeader, "summary" | "line_key">;

export async function sendResult(ports: AgentPorts, base: ResultBase, record: Record<string, unknown>): Promise<void> {
  // A failure's summary is its class: the Job object counts failures by class from it.
  const summary = base.kind === "rollout" ? summarize(record) : { failure_class: record.failure_class };
  const header: ResultHeader = { ...base, summary };
  const line = JSON.stringify(record);
  const message = encodeResult({ header, line });
  if (fitsInBytes(message, ports.results.limits.maxMessageBytes - ENVELOPE_BYTES)) return ports.results.send(message);
  // A rollout with token ids (or long text) can pass a message's limit: the line goes to the bucket, the message carries its key.
  const key = jobKeys.payload(base.job_id, base.rollout_id);
  await ports.store.put(key, line, { contentType: "application/json" });
  await ports.results.send(encodeResult({ header: { ...header, line_key: key } }));
}
