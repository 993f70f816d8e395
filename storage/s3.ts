// Amazon S3 (or any S3 API: R2, MinIO, a local emulator) behind the ObjectStore interface.
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  type S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import type { ListPage, ObjectStore, StoredObject } from "./store.js";

/** DeleteObjects takes at most 1,000 keys a request. */
const DELETE_BATCH = 1000;
/** S3 answers 409 ConditionalRequestConflict when two conditional writes of a key overlap; asking again settles it. */
const CONFLICT_RETRIES = 3;

export interface S3StoreOptions {
  /**
   * How `onlyIfAbsent` is kept. "native" (the default): `If-None-Match: *`, atomic on S3 (since 2024), R2 and MinIO.
   * "emulated": for an endpoint that ignores the header (fauxqs 1.9.2 does): a HEAD before the conditional PUT, with
   * the writers of one key serialized inside this process. Correct for writers in one process, NOT across processes.
   * `conditionalWritesHonoured()` tells which one an endpoint needs.
   */
  conditionalWrites?: "native" | "emulated";
}

function status(error: unknown): number | undefined {
  return error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
}

async function bytesOf(body: string | Uint8Array | ReadableStream<Uint8Array>): Promise<string | Uint8Array> {
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  // PutObject needs the length up front (an unknown-length stream is refused), so a stream is read whole first.
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/** One writer of a key at a time, in order of arrival (a conditional write's check and put as one step). */
export function serialByKey(): <T>(lockKey: string, work: () => Promise<T>) => Promise<T> {
  const locks = new Map<string, Promise<unknown>>();
  return async (lockKey, work) => {
    const previous = locks.get(lockKey) ?? Promise.resolve();
    const run = previous.then(work, work);
    // The caller gets this write's error from `run`; the lock only orders writers, and the next one must not inherit it.
    const tail = run.catch(() => undefined);
    locks.set(lockKey, tail);
    try {
      return await run;
    } finally {
      if (locks.get(lockKey) === tail) locks.delete(lockKey);
    }
  };
}

/** Writers of one key wait for each other (emulated conditional writes only); module-wide, so every store in the process shares it. */
const exclusive = serialByKey();

export function s3Store(client: S3Client, bucket: string, prefix = "", options: S3StoreOptions = {}): ObjectStore {
  const full = (key: string) => prefix + key;
  const strip = (key: string) => key.slice(prefix.length);

  async function exists(key: string): Promise<boolean> {
    try {
      await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return true;
    } catch (error) {
      if (status(error) === 404) return false;
      throw error;
    }
  }

  async function putOnce(key: string, body: string | Uint8Array, contentType: string | undefined, onlyIfAbsent: boolean): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: body,
            // The SDK finds no length in an empty body and warns of an unknown-length stream; a zero length says it.
            ...((typeof body === "string" ? body.length : body.byteLength) === 0 ? { ContentLength: 0 } : {}),
            ...(contentType ? { ContentType: contentType } : {}),
            ...(onlyIfAbsent ? { IfNoneMatch: "*" } : {}),
          }),
        );
        return true;
      } catch (error) {
        const code = status(error);
        if (onlyIfAbsent && code === 412) return false; // PreconditionFailed: the key exists, nothing written
        if (onlyIfAbsent && code === 409 && attempt < CONFLICT_RETRIES) continue;
        throw error;
      }
    }
  }

  return {
    async put(key, body, putOptions = {}) {
      const data = await bytesOf(body);
      const onlyIfAbsent = putOptions.onlyIfAbsent === true;
      if (!onlyIfAbsent || options.conditionalWrites !== "emulated") return putOnce(full(key), data, putOptions.contentType, onlyIfAbsent);
      return exclusive(`${bucket}/${full(key)}`, async () => {
        if (await exists(full(key))) return false;
        // Still conditional: where the endpoint does honour it, a writer in another process cannot slip in.
        return putOnce(full(key), data, putOptions.contentType, true);
      });
    },

    async get(key): Promise<StoredObject | null> {
      let response: GetObjectCommandOutput;
      try {
        response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: full(key) }));
      } catch (error) {
        if (error instanceof NoSuchKey) return null; // not a missing bucket, which is a 404 too
        throw error;
      }
      const payload = response.Body;
      if (!payload) throw new Error(`S3 returned no body for ${full(key)}`);
      // The SDK lets its body be read one way, once: the stream, or the whole thing. Until read it holds a socket.
      const bytes = () => payload.transformToByteArray();
      return {
        key,
        size: response.ContentLength ?? 0,
        get body() {
          return payload.transformToWebStream() as ReadableStream<Uint8Array>;
        },
        bytes,
        text: async () => new TextDecoder().decode(await bytes()),
        json: async <T>() => JSON.parse(new TextDecoder().decode(await bytes())) as T,
      };
    },

    async list(listOptions): Promise<ListPage> {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket: bucket,
          Prefix: full(listOptions.prefix),
          MaxKeys: listOptions.limit ?? 1000,
          ...(listOptions.delimiter ? { Delimiter: listOptions.delimiter } : {}),
          ...(listOptions.cursor ? { ContinuationToken: listOptions.cursor } : {}),
          ...(listOptions.startAfter ? { StartAfter: full(listOptions.startAfter) } : {}),
        }),
      );
      return {
        keys: (page.Contents ?? []).flatMap((object) => (object.Key ? [strip(object.Key)] : [])),
        prefixes: (page.CommonPrefixes ?? []).flatMap((common) => (common.Prefix ? [strip(common.Prefix)] : [])),
        ...(page.IsTruncated && page.NextContinuationToken ? { cursor: page.NextContinuationToken } : {}),
      };
    },

    async delete(keys) {
      const all = (typeof keys === "string" ? [keys] : keys).map(full);
      for (let start = 0; start < all.length; start += DELETE_BATCH) {
        const chunk = all.slice(start, start + DELETE_BATCH);
        const result = await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: chunk.map((Key) => ({ Key })), Quiet: true } }));
        // A missing key is deleted as far as S3 is concerned; an error here is a real one (permissions, throttling).
        const errors = result.Errors ?? [];
        if (errors.length) {
          const first = errors[0]!;
          throw new Error(`S3 refused to delete ${errors.length} of ${chunk.length} keys, first ${first.Key}: ${first.Code} ${first.Message ?? ""}`.trim());
        }
      }
    },
  };
}

/**
 * Whether an endpoint honours `If-None-Match: *` on PutObject: writes a probe key twice and deletes it. S3, R2 and MinIO
 * do; fauxqs 1.9.2 silently overwrites. Local tooling calls this once and picks `conditionalWrites` from the answer.
 */
export async function conditionalWritesHonoured(client: S3Client, bucket: string, prefix = ""): Promise<boolean> {
  const store = s3Store(client, bucket, prefix);
  const key = `.edgegym-probe/${crypto.randomUUID()}`;
  await store.put(key, "1", { onlyIfAbsent: true });
  const second = await store.put(key, "2", { onlyIfAbsent: true });
  await store.delete(key);
  return !second;
}
