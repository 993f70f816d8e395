// GET /v1/jobs/:id/groups: the async feed. Completed groups (every repeat of a task) in the order they completed, a batch
// at a time, each handed to one consumer of a cursor only; it waits (long-polls) for a batch, bounded by `wait`.
import { z } from "zod";
import type { GroupPage, GroupTake, JobRpc } from "../../contracts/jobs.js";
import { parseOr400 } from "../../protocol/index.js";
import { gateway } from "./caller.js";
import { job, missing } from "./jobs-read.js";
import { readRecords } from "./jobs-views.js";
import { gatewayPorts } from "./ports.js";

const version = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

const GroupsQuery = z
  .strictObject({
    /** Consumers that share a cursor share its position (each group goes to one of them); another name starts from the first group. */
    cursor: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, "must be 1-64 of A-Z a-z 0-9 _ . -")
      .default("default"),
    /** Groups per answer, at most. */
    limit: z.coerce.number().int().min(1).max(256).default(16),
    /** Wait for this many groups (a full batch) before answering, unless `wait` runs out or no more can come. */
    min_groups: z.coerce.number().int().min(1).max(256).default(1),
    /** Seconds to wait for a batch (long polling); 0 answers at once. */
    wait: z.coerce.number().min(0).max(30).default(20),
    /** Groups of an older policy version are dropped (counted in `dropped`), not handed out. */
    min_version: version.optional(),
    /** With max_staleness: the trainer's version; groups older than current_version − max_staleness are dropped. */
    current_version: version.optional(),
    max_staleness: version.optional(),
  })
  .refine((q) => (q.current_version === undefined) === (q.max_staleness === undefined), {
    message: "current_version and max_staleness go together",
    path: ["max_staleness"],
  })
  .refine((q) => q.min_groups <= q.limit, { message: "must be at most limit", path: ["min_groups"] });

type GroupsQuery = z.infer<typeof GroupsQuery>;

function floorOf(query: GroupsQuery): number | undefined {
  const floors = [query.min_version, query.current_version === undefined ? undefined : query.current_version - (query.max_staleness ?? 0)];
  const given = floors.filter((floor): floor is number => floor !== undefined);
  return given.length ? Math.max(...given) : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Takes until a batch is ready, groups were dropped, no more can come, or the wait is over (then what is ready, if any). */
async function longPoll(stub: JobRpc, take: GroupTake, waitMs: number): Promise<GroupPage | null> {
  const deadline = Date.now() + waitMs;
  let pause = 100;
  for (;;) {
    const last = Date.now() + pause >= deadline;
    const page = await stub.takeGroups(last ? { ...take, atLeast: 1 } : take);
    if (!page) return null;
    const ended = page.status !== "running" || page.incomplete === 0;
    if (page.groups.length > 0 || page.dropped > 0 || last || (ended && page.pending === 0)) return page;
    await sleep(Math.min(pause, Math.max(0, deadline - Date.now())));
    pause = Math.min(1000, pause * 2);
  }
}

export const jobGroups = gateway.createApp();

jobGroups.get("/:id/groups", async (c) => {
  const query = parseOr400(GroupsQuery, c.req.query(), "groups query");
  const floor = floorOf(query);
  const take: GroupTake = { cursor: query.cursor, limit: query.limit, atLeast: query.min_groups, ...(floor === undefined ? {} : { minVersion: floor }) };
  const page = await longPoll(await job(c), take, query.wait * 1000);
  if (!page) missing(c.req.param("id"));
  const store = gatewayPorts(c.env).store;
  const data = await Promise.all(
    page.groups.map(async (group) => {
      const records = await readRecords(store, group.locations);
      const of = (kind: string) => records.filter((_, i) => group.locations[i]!.kind === kind);
      return {
        task_index: group.task_index,
        sequence: group.sequence,
        completed_at: group.completed_at,
        ...(page.policy_version === undefined ? {} : { policy_version: page.policy_version }),
        rollouts: of("rollout"),
        failures: of("failure"),
      };
    }),
  );
  const finished = page.status !== "running" && page.pending === 0;
  return c.json({
    object: "list",
    job_id: c.req.param("id"),
    cursor: query.cursor,
    data,
    dropped: page.dropped,
    pending: page.pending,
    incomplete: page.incomplete,
    status: page.status,
    finished,
  });
});
