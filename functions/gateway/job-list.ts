// Which jobs the bucket holds, newest first, a page at a time: every list page of the bucket is read, never only the first.
import { JOBS_PREFIX } from "../../contracts/messages.js";
import { listAll, type ObjectStore } from "../../storage/store.js";

export const JOB_ID = /^job_[a-z0-9]+$/;

export interface JobIdPage {
  /** Newest first. */
  ids: string[];
  /** Whether older jobs follow the page. */
  hasMore: boolean;
}

/** One page of job ids, newest first, after the id `after` (the previous page's last) when given. */
export async function jobIdPage(store: ObjectStore, query: { after?: string | undefined; limit: number }): Promise<JobIdPage> {
  const ids: string[] = [];
  for await (const page of listAll(store, { prefix: JOBS_PREFIX, delimiter: "/" })) {
    for (const prefix of page.prefixes) {
      const id = prefix.slice(JOBS_PREFIX.length, -1);
      if (JOB_ID.test(id)) ids.push(id);
    }
  }
  // Ids start with the creation time in base 36, so their order is the order of creation.
  ids.sort().reverse();
  const { after, limit } = query;
  const start = after ? ids.findIndex((id) => id < after) : 0;
  if (start < 0) return { ids: [], hasMore: false };
  return { ids: ids.slice(start, start + limit), hasMore: start + limit < ids.length };
}
