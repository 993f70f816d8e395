// A collection's output, written in the order rollouts finish, put back in task-then-repeat order at the end: an index of
// each line's place (not the lines) is all that is held in memory, so a large output never sits whole in memory.
import { closeSync, createReadStream, openSync, readSync, renameSync, writeSync } from "node:fs";
import { ROLLOUT_INDEX, TASK_INDEX } from "../../protocol/index.js";

interface Place {
  task: number;
  rollout: number;
  offset: number;
  length: number;
}

/** Each complete JSON line's indices and byte range; a line that does not parse (cut short by a killed write) is left out. */
async function index(file: string): Promise<Place[]> {
  const places: Place[] = [];
  let carry = Buffer.alloc(0);
  let offset = 0;
  const take = (line: Buffer, at: number) => {
    const text = line.toString("utf8").trim();
    if (!text) return;
    try {
      const record = JSON.parse(text) as Record<string, unknown>;
      places.push({ task: Number(record[TASK_INDEX]), rollout: Number(record[ROLLOUT_INDEX]), offset: at, length: line.length });
    } catch {
      // Not a whole record: a --resume run collects that rollout again.
    }
  };
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    const data = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    let start = 0;
    for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
      take(data.subarray(start, nl), offset + start);
      start = nl + 1;
    }
    offset += start;
    carry = Buffer.from(data.subarray(start));
  }
  if (carry.length) take(carry, offset);
  return places;
}

/** Rewrites the JSONL file in task-then-repeat order (NeMo Gym's order); returns the number of records. */
export async function sortByIndex(file: string): Promise<number> {
  const places = await index(file);
  const sorted = [...places].sort((a, b) => a.task - b.task || a.rollout - b.rollout);
  if (sorted.every((place, i) => place === places[i])) return places.length;
  const temp = `${file}.sorting`;
  const input = openSync(file, "r");
  const output = openSync(temp, "w");
  try {
    for (const place of sorted) {
      const line = Buffer.allocUnsafe(place.length + 1);
      readSync(input, line, 0, place.length, place.offset);
      line[place.length] = 10;
      writeSync(output, line);
    }
  } finally {
    closeSync(input);
    closeSync(output);
  }
  renameSync(temp, file);
  return places.length;
}
