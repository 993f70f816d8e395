// The R2 binding behind the ObjectStore interface.
import type { ListPage, ObjectStore, StoredObject } from "./store.js";

function stored(object: R2ObjectBody): StoredObject {
  return {
    key: object.key,
    size: object.size,
    body: object.body,
    text: () => object.text(),
    json: <T>() => object.json<T>(),
    bytes: async () => new Uint8Array(await object.arrayBuffer()),
  };
}

export function r2Store(bucket: R2Bucket): ObjectStore {
  return {
    async put(key, body, options = {}) {
      const written = await bucket.put(key, body, {
        ...(options.contentType ? { httpMetadata: { contentType: options.contentType } } : {}),
        // R2 answers null instead of writing when the condition fails; "no etag matches *" means "no object yet".
        ...(options.onlyIfAbsent ? { onlyIf: { etagDoesNotMatch: "*" } } : {}),
      });
      return written !== null;
    },
    async get(key) {
      const object = await bucket.get(key);
      return object ? stored(object) : null;
    },
    async list(options): Promise<ListPage> {
      const page = await bucket.list({
        prefix: options.prefix,
        limit: options.limit ?? 1000,
        ...(options.delimiter ? { delimiter: options.delimiter } : {}),
        ...(options.cursor ? { cursor: options.cursor } : {}),
        ...(options.startAfter ? { startAfter: options.startAfter } : {}),
      });
      return {
        keys: page.objects.map((object) => object.key),
        prefixes: page.delimitedPrefixes,
        ...(page.truncated ? { cursor: page.cursor } : {}),
      };
    },
    async delete(keys) {
      await bucket.delete(keys);
    },
  };
}
