// A finished rollout (or failure) to where results go: the `results` queue (serialized once into its JSONL line, by bucket
// pointer when large), or straight into the job's ledger where the agent has it in reach (the AWS path).
import { encodeResult, jobKeys, type ResultHeader } from "../../contracts/messages.js";
import { summarize, summarizeFailure } from "../../metrics/summary.js";
import { ENVELOPE_BYTES, fitsInBytes } from "../../queues/queue.js";
import type { AgentPorts } from "./ports.js";

export type ResultBase = Omit<ResultHeader, "summary" | "line_key">;

export async function sendResult(ports: AgentPorts, base: ResultBase, record: Record<string, unknown>): Promise<void> {
  const header: ResultHeader = { ...base, summary: base.kind === "rollout" ? summarize(record) : summarizeFailure(record) };
  const line = JSON.stringify(record);
  if (!("send" in ports.results)) {
    const { job_id, ...entry } = header;
    await ports.results.record(job_id, [{ ...entry, line }]);
    return;
  }
  const message = encodeResult({ header, line });
  if (fitsInBytes(message, ports.results.limits.maxMessageBytes - ENVELOPE_BYTES)) return ports.results.send(message);
  // A rollout with token ids (or long text) can pass a message's limit: the line goes to the bucket, the message carries its key.
  const key = jobKeys.payload(base.job_id, base.rollout_id);
  await ports.store.put(key, line, { contentType: "application/json" });
  await ports.results.send(encodeResult({ header: { ...header, line_key: key } }));
}
