// A job's inputs chunks, read from the bucket once per consumer batch (or runner), however many rollouts need each.
import { type DatasetRow, EdgegymError, TASK_INDEX } from "../../protocol/index.js";
import type { AgentPorts } from "./ports.js";

/** A chunk's rows by task index, with each row's JSON line as stored (to size messages without serializing again). */
export type Chunk = Map<number, { row: DatasetRow; line: string }>;

export type ChunkReader = (key: string) => Promise<Chunk>;

/** Reads each inputs chunk once, however many rollouts need it; at most `keep` chunks are held (the oldest goes first). */
export function chunkReader(ports: Pick<AgentPorts, "store">, keep = Number.POSITIVE_INFINITY): ChunkReader {
  const reads = new Map<string, Promise<Chunk>>();
  return (key) => {
    let read = reads.get(key);
    if (!read) {
      read = (async () => {
        const object = await ports.store.get(key);
        if (!object) throw new EdgegymError(502, "inputs_missing", `the job's inputs chunk ${key} is not in the bucket`);
        const chunk: Chunk = new Map();
        for (const line of (await object.text()).split("\n")) {
          if (!line) continue;
          // Rows stored by the gateway after it checked them: read back as they were written.
          const row = JSON.parse(line) as DatasetRow;
          chunk.set(row[TASK_INDEX] as number, { row, line });
        }
        return chunk;
      })();
      // A failed read is not kept: the next message that needs the chunk tries again.
      read.catch(() => reads.delete(key));
      if (reads.size >= keep) reads.delete(reads.keys().next().value!);
      reads.set(key, read);
    }
    return read;
  };
}
