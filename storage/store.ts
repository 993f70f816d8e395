// The object storage interface every part writes through: R2 on Cloudflare, S3 (or R2's S3 API) from Node and Lambda.

/** An object read back: its body as a stream, or read whole when it is known to be small. */
export interface StoredObject {
  key: string;
  /** Size in bytes. */
  size: number;
  body: ReadableStream<Uint8Array>;
  text(): Promise<string>;
  json<T = unknown>(): Promise<T>;
  bytes(): Promise<Uint8Array>;
}

export interface PutOptions {
  contentType?: string;
  /** Write only if no object has the key yet (a conditional put): the second writer of a key loses, whatever the backend. */
  onlyIfAbsent?: boolean;
}

export interface ListOptions {
  prefix: string;
  /** Group keys by the part after the prefix up to this character (for "folders"). */
  delimiter?: string;
  /** The cursor a previous page returned. */
  cursor?: string;
  /** Only keys after this one (lexicographically): where a caller that saw the keys up to it picks up. */
  startAfter?: string;
  /** Keys per page (the backend may return fewer); default 1,000. */
  limit?: number;
}

export interface ListPage {
  keys: string[];
  /** With a delimiter: the common prefixes ("folders") on this page. */
  prefixes: string[];
  /** Set when there is another page. */
  cursor?: string;
}

export interface ObjectStore {
  /** Writes the object; false when `onlyIfAbsent` was asked and the key already existed (nothing written). */
  put(key: string, body: string | Uint8Array | ReadableStream<Uint8Array>, options?: PutOptions): Promise<boolean>;
  get(key: string): Promise<StoredObject | null>;
  list(options: ListOptions): Promise<ListPage>;
  /** Deletes the keys; a missing key is not an error. */
  delete(keys: string | string[]): Promise<void>;
}

/** Every key under a prefix, page by page, following the cursor to the end. */
export async function* listAll(store: ObjectStore, options: Omit<ListOptions, "cursor">): AsyncGenerator<ListPage> {
  let cursor: string | undefined;
  do {
    const page = await store.list({ ...options, ...(cursor ? { cursor } : {}) });
    yield page;
    cursor = page.cursor;
  } while (cursor);
}
