// Job listing past one bucket list page (R2 answers at most 1,000 keys and prefixes a call), against real local R2.
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobKeys } from "../../contracts/messages.js";
import { jobIdPage } from "../../functions/gateway/job-list.js";
import { COMPATIBILITY_DATE } from "../../infra/topology.js";
import { r2Store } from "../../storage/r2.js";
import type { ObjectStore } from "../../storage/store.js";

const JOBS = 1_050;
/** Ids as the gateway makes them (base-36 creation time first), oldest first. */
const ids = Array.from({ length: JOBS }, (_, i) => `job_${(1_700_000_000_000 + i * 1_000).toString(36)}${i.toString(36).padStart(10, "0")}`);
const newestFirst = [...ids].reverse();

let miniflare: Miniflare;
let store: ObjectStore;

beforeAll(async () => {
  miniflare = new Miniflare({
    modules: true,
    // Writes the keys it is sent in one request: far quicker than a round trip from Node per object.
    script: `export default {
      async fetch(request, env) {
        await Promise.all((await request.json()).map((key) => env.BUCKET.put(key, "{}")));
        return new Response("written");
      },
    }`,
    compatibilityDate: COMPATIBILITY_DATE,
    r2Buckets: ["BUCKET"],
  });
  // Miniflare's proxy is the R2 binding itself, typed with Node's Headers instead of workers-types' (hence the cast).
  store = r2Store((await miniflare.getR2Bucket("BUCKET")) as unknown as R2Bucket);
  // A job folder holds several objects (it is listed once), and the bucket holds other folders under jobs/ too.
  const keys = ids.flatMap((id, i) => (i % 50 === 0 ? [jobKeys.manifest(id), jobKeys.inputsChunk(id, 0)] : [jobKeys.manifest(id)]));
  keys.push("jobs/not-a-job/job.json", "jobs/loose-object.json", "datasets/weather.jsonl");
  const written = await miniflare.dispatchFetch("http://bucket.test/", { method: "POST", body: JSON.stringify(keys) });
  expect(await written.text()).toBe("written");
}, 120_000);

afterAll(async () => {
  await miniflare?.dispose();
});

describe("job ids from the bucket", () => {
  it("one bucket list call does not see them all (which is why the cursor must be followed)", async () => {
    const first = await store.list({ prefix: "jobs/", delimiter: "/" });
    expect(first.prefixes.length).toBeLessThan(JOBS);
    expect(first.cursor).toBeDefined();
  });

  it("a page as large as the API allows (1,000) past the first bucket page: every job once, newest first", async () => {
    const first = await jobIdPage(store, { limit: 1000 });
    expect(first).toEqual({ ids: newestFirst.slice(0, 1000), hasMore: true });
    const second = await jobIdPage(store, { after: first.ids.at(-1), limit: 1000 });
    expect(second).toEqual({ ids: newestFirst.slice(1000), hasMore: false });
  });

  it("paging with `after` (the last id of the page before) sees every job exactly once, in order", async () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (let pages = 0; ; pages++) {
      expect(pages).toBeLessThan(20);
      const page = await jobIdPage(store, { after, limit: 100 });
      seen.push(...page.ids);
      if (!page.hasMore) break;
      after = page.ids.at(-1);
    }
    expect(seen).toEqual(newestFirst);
    expect(await jobIdPage(store, { after: ids[0], limit: 100 })).toEqual({ ids: [], hasMore: false });
  });
});
