// A job seen without downloading it: GET /v1/jobs/:id/summary (distributions, pass rates, failures by class) and
// GET /v1/jobs/:id/records (a filtered page of results, each with its record), both answered from the Job object's table.
import { z } from "zod";
import type { BrowseEntry, RecordsPage } from "../../contracts/job-views.js";
import { EdgegymError, parseOr400 } from "../../protocol/index.js";
import type { ObjectStore } from "../../storage/store.js";
import { gateway } from "./caller.js";
import { job, missing } from "./jobs-read.js";
import { gatewayPorts } from "./ports.js";

const SummaryQuery = z.object({
  environment: z.string().min(1).optional(),
  bins: z.coerce.number().int().min(1).max(100).default(10),
  pass_threshold: z.coerce.number().default(1),
  task_limit: z.coerce.number().int().min(0).max(100_000).default(1000),
});

const RecordsQuery = z.object({
  kind: z.enum(["rollout", "failure", "all"]).default("all"),
  environment: z.string().min(1).optional(),
  min_reward: z.coerce.number().optional(),
  max_reward: z.coerce.number().optional(),
  failure_class: z.string().min(1).optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** `task:repeat`: the page starts there (or at the next match), and `offset` says where that is. */
  at: z
    .string()
    .regex(/^\d+:\d+$/, "must be task:repeat")
    .transform((value) => value.split(":").map(Number) as [number, number])
    .optional(),
  /** Each entry with its record (the JSONL line, parsed); `false` lists the entries only. */
  records: z.enum(["true", "false", "1", "0"]).default("true"),
});

const decoder = new TextDecoder();

/** The lines of these entries, each results object read once. */
export async function readRecords(store: ObjectStore, entries: Pick<BrowseEntry, "object_key" | "offset" | "length">[]): Promise<Record<string, unknown>[]> {
  const objects = new Map<string, Promise<Uint8Array>>();
  const bytesOf = (key: string) => {
    let bytes = objects.get(key);
    if (!bytes) {
      bytes = store.get(key).then((object) => {
        if (!object) throw new EdgegymError(500, "internal_error", `result object ${key} is missing`);
        return object.bytes();
      });
      objects.set(key, bytes);
    }
    return bytes;
  };
  return Promise.all(
    // Each line is a record the Job object wrote: a JSON object.
    entries.map(
      async (entry) =>
        JSON.parse(decoder.decode((await bytesOf(entry.object_key)).subarray(entry.offset, entry.offset + entry.length))) as Record<string, unknown>,
    ),
  );
}

export const jobViews = gateway.createApp();

jobViews.get("/:id/summary", async (c) => {
  const query = parseOr400(SummaryQuery, c.req.query(), "summary query");
  const { environment, ...rest } = query;
  return c.json((await (await job(c)).summary({ ...rest, ...(environment ? { environment } : {}) })) ?? missing(c.req.param("id")));
});

jobViews.get("/:id/records", async (c) => {
  const { records, at, environment, min_reward, max_reward, failure_class, ...rest } = parseOr400(RecordsQuery, c.req.query(), "records query");
  const page = await (await job(c)).browse({
    ...rest,
    ...(at ? { at } : {}),
    ...(environment !== undefined ? { environment } : {}),
    ...(min_reward !== undefined ? { min_reward } : {}),
    ...(max_reward !== undefined ? { max_reward } : {}),
    ...(failure_class !== undefined ? { failure_class } : {}),
  });
  if (!page) missing(c.req.param("id"));
  const withRecords = records === "true" || records === "1";
  const lines = withRecords ? await readRecords(gatewayPorts(c.env).store, page.entries) : [];
  const data = page.entries.map(({ object_key: _key, offset: _offset, length: _length, ...entry }, i) => ({
    ...entry,
    position: page.offset + i,
    ...(withRecords ? { record: lines[i] } : {}),
  }));
  return c.json({ object: "list", total: page.total, offset: page.offset, data } satisfies RecordsPage);
});
