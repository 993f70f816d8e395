// The one expansion loop: an expand message becomes its rollouts, one per (row, repeat) the job still wants, whichever
// scheduler then runs them (functions/agent/scheduler.ts).
import type { ExpandMessage, RolloutMessage } from "../../contracts/messages.js";
import { ENVELOPE_BYTES, fitsInBytes } from "../../queues/queue.js";
import type { ChunkReader } from "./chunks.js";
import type { AgentPorts } from "./ports.js";

/**
 * The rollouts of an expand message's chunk, each (row, repeat) once, only those listed when the message lists some. A row
 * travels inline when its rollout message fits the `rollouts` queue; else the message names the chunk that holds it.
 */
export async function expandChunk(
  ports: Pick<AgentPorts, "rollouts">,
  body: ExpandMessage,
  numRepeats: number,
  readChunk: ChunkReader,
): Promise<RolloutMessage[]> {
  const chunk = await readChunk(body.chunk_key);
  const wanted = body.only ? new Set(body.only.map(([t, r]) => `${t}:${r}`)) : undefined;
  const room = ports.rollouts.limits.maxMessageBytes - ENVELOPE_BYTES - 512;
  const rollouts: RolloutMessage[] = [];
  for (const [task, { row, line }] of chunk) {
    const inline = fitsInBytes(line, room);
    for (let repeat = 0; repeat < numRepeats; repeat++) {
      if (wanted && !wanted.has(`${task}:${repeat}`)) continue;
      const message: RolloutMessage = { kind: "rollout", job_id: body.job_id, task_index: task, rollout_index: repeat, attempt: body.attempt };
      rollouts.push(inline ? { ...message, row } : { ...message, chunk_key: body.chunk_key });
    }
  }
  return rollouts;
}
