// The S3 ObjectStore against fauxqs: what a writer and a reader of the bucket see.
import { S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedStore } from "../../storage/guarded.js";
import { conditionalWritesHonoured, s3Store } from "../../storage/s3.js";
import { listAll, type ObjectStore } from "../../storage/store.js";
import { startConditionalFront } from "../../local/aws/conditional-s3.js";
import { countCommands, type LocalAws, startLocalAws, unique } from "./fauxqs.js";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(async () => {
  await aws?.stop();
});

function freshBucket(): string {
  return aws.server.createBucket(unique("bucket")).bucketName;
}

async function keysOf(store: ObjectStore, prefix: string, limit?: number): Promise<{ keys: string[]; pages: number }> {
  const keys: string[] = [];
  let pages = 0;
  for await (const page of listAll(store, { prefix, ...(limit ? { limit } : {}) })) {
    keys.push(...page.keys);
    pages++;
  }
  return { keys, pages };
}

// 60,000 characters of 3 bytes in UTF-8 (180 KB), with a 4-byte character (a surrogate pair in JavaScript) among them.
const CJK = `${"漢字かなカナ한글中文".repeat(6_000).slice(0, 59_999)}𠀋`;

describe("s3Store", () => {
  it("through the guarded store (every deployment's), an object is read whole, as text, as JSON or as a stream", async () => {
    const { s3 } = aws.clients();
    const store = guardedStore(s3Store(s3, freshBucket()));
    await store.put("a.json", '{"n":1}');
    expect(await (await store.get("a.json"))?.json()).toEqual({ n: 1 });
    expect(await (await store.get("a.json"))?.text()).toBe('{"n":1}');
    expect(new TextDecoder().decode(await (await store.get("a.json"))?.bytes())).toBe('{"n":1}');
    const streamed = await store.get("a.json");
    expect(streamed?.size).toBe(7);
    expect(await new Response(streamed?.body).text()).toBe('{"n":1}');
  });

  it("puts, gets, lists over 1,000 keys page by page with the cursor, and deletes them in batches of 1,000", async () => {
    const { s3 } = aws.clients();
    const commands = countCommands(s3);
    const store = s3Store(s3, freshBucket());
    const keys = Array.from({ length: 1_050 }, (_, i) => `jobs/j1/rollouts/${String(i).padStart(5, "0")}.jsonl`);
    for (let i = 0; i < keys.length; i += 50) await Promise.all(keys.slice(i, i + 50).map((key, j) => store.put(key, `{"n":${i + j}}\n`)));

    const object = await store.get(keys[7]!);
    expect(object?.size).toBe(`{"n":7}\n`.length);
    expect(await object?.json()).toEqual({ n: 7 });

    const paged = await keysOf(store, "jobs/j1/", 100);
    expect(paged.pages).toBe(11);
    expect(paged.keys).toEqual(keys);
    const first = await store.list({ prefix: "jobs/j1/" });
    expect(first.keys).toHaveLength(1_000);
    expect(first.cursor).toBeDefined();
    expect((await store.list({ prefix: "jobs/j1/", cursor: first.cursor! })).keys).toEqual(keys.slice(1_000));

    await store.delete(keys);
    expect(commands.get("DeleteObjectsCommand")).toBe(2);
    expect((await keysOf(store, "jobs/")).keys).toEqual([]);
    expect(await store.get(keys[0]!)).toBeNull();
    await store.delete(["never/written"]); // a missing key is not an error
  });

  it("groups keys by a delimiter and keeps its own prefix out of every key it returns", async () => {
    const bucket = freshBucket();
    const store = s3Store(aws.s3, bucket, "stage-a/");
    for (const key of ["jobs/a/job.json", "jobs/a/rollouts/1.jsonl", "jobs/b/job.json", "jobs/top.json"]) await store.put(key, "{}");
    const page = await store.list({ prefix: "jobs/", delimiter: "/" });
    expect(page.prefixes).toEqual(["jobs/a/", "jobs/b/"]);
    expect(page.keys).toEqual(["jobs/top.json"]);
    expect((await keysOf(s3Store(aws.s3, bucket), "")).keys).toContain("stage-a/jobs/a/job.json");
    expect(await s3Store(aws.s3, bucket, "stage-b/").get("jobs/top.json")).toBeNull();
  });

  it("round-trips a 180 KB CJK body byte for byte, as text, bytes and a stream, and takes a stream body", async () => {
    const store = s3Store(aws.s3, freshBucket());
    const bytes = new TextEncoder().encode(CJK);
    expect(bytes.byteLength).toBe(59_999 * 3 + 4);
    await store.put("cjk.txt", CJK, { contentType: "text/plain; charset=utf-8" });
    expect(await (await store.get("cjk.txt"))!.text()).toBe(CJK);
    const asBytes = await store.get("cjk.txt");
    expect(asBytes!.size).toBe(bytes.byteLength);
    expect(await asBytes!.bytes()).toEqual(bytes);
    expect(await new Response((await store.get("cjk.txt"))!.body).text()).toBe(CJK);

    const stream = new Blob([bytes]).stream();
    await store.put("streamed.txt", stream);
    expect(await (await store.get("streamed.txt"))!.text()).toBe(CJK);
  });

  it("a missing key is null, a missing bucket is an error", async () => {
    expect(await s3Store(aws.s3, freshBucket()).get("nothing")).toBeNull();
    await expect(s3Store(aws.s3, "no-such-bucket").get("nothing")).rejects.toThrow();
  });
});

describe("conditional put (onlyIfAbsent)", () => {
  async function secondWriterLoses(store: ObjectStore): Promise<void> {
    expect(await store.put("results/r1.json", '{"writer":1}', { onlyIfAbsent: true })).toBe(true);
    expect(await store.put("results/r1.json", '{"writer":2}', { onlyIfAbsent: true })).toBe(false);
    expect(await (await store.get("results/r1.json"))!.json()).toEqual({ writer: 1 });
    // Eight writers at once: exactly one wins and the object holds its body.
    const wins = await Promise.all(Array.from({ length: 8 }, (_, i) => store.put("results/race.json", `{"writer":${i}}`, { onlyIfAbsent: true })));
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect(await (await store.get("results/race.json"))!.json()).toEqual({ writer: wins.indexOf(true) });
  }

  it("fauxqs 1.9.2 ignores If-None-Match: the probe says so", async () => {
    expect(await conditionalWritesHonoured(aws.s3, freshBucket())).toBe(false);
  });

  it("emulated on fauxqs: the second writer gets false and the object keeps the first body", async () => {
    await secondWriterLoses(s3Store(aws.s3, freshBucket(), "", { conditionalWrites: "emulated" }));
  });

  it("native against an endpoint that answers 412 (as S3 and R2 do): the second writer gets false", async () => {
    const bucket = freshBucket();
    const proxy = await startConditionalFront(aws.endpoint);
    const client = new S3Client({ endpoint: proxy.url, region: "us-east-1", forcePathStyle: true, credentials: { accessKeyId: "l", secretAccessKey: "l" } });
    try {
      expect(await conditionalWritesHonoured(client, bucket)).toBe(true);
      await secondWriterLoses(s3Store(client, bucket));
    } finally {
      client.destroy();
      await proxy.close();
    }
  });
});
