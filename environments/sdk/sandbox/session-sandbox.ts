// `ctx.sandbox`: the session's one sandbox over a provider, created on first use, its handle stored before use.
import type { KeptProcess, RunLimits, RunRequest, RunResult, Sandbox, SandboxProvider, SandboxRecord, SandboxSpec } from "../../../contracts/sandbox.js";
import { SandboxError } from "./errors.js";

/** Where the session keeps its sandbox record (the session's Durable Object storage, or memory in process). */
export interface SandboxRecords {
  get(): Promise<SandboxRecord | undefined>;
  put(record: SandboxRecord): Promise<void>;
  delete(): Promise<void>;
}

export interface SessionSandboxParts {
  provider: SandboxProvider;
  spec: SandboxSpec;
  records: SandboxRecords;
  /** The operation's signal: every call is bounded by it. */
  signal: () => AbortSignal;
}

/** Read bytes default (1 MiB) when the caller gives no bound. */
const READ_DEFAULT = 1 << 20;

export function sessionSandbox(parts: SessionSandboxParts): Sandbox {
  const { provider, records } = parts;

  /** The live record, creating the sandbox (and storing its handle, before any use) when there is none. */
  const current = async (): Promise<SandboxRecord> => {
    const existing = await records.get();
    if (existing) return existing;
    const handle = await provider.create(parts.spec, parts.signal());
    const record: SandboxRecord = { handle, createdAt: Date.now(), kept: {} };
    await records.put(record);
    return record;
  };

  /** A stateless call retried once on a fresh sandbox when the provider lost the old one (TTL, crash). */
  const withFresh = async <T>(call: (record: SandboxRecord) => Promise<T>): Promise<T> => {
    const record = await current();
    try {
      return await call(record);
    } catch (error) {
      if (!(error instanceof SandboxError) || error.code !== "sandbox_gone") throw error;
      await records.delete();
      return call(await current());
    }
  };

  return {
    run: (request: RunRequest) => withFresh((record) => provider.run(record.handle, request, parts.signal())),
    writeFile: (path, content) =>
      withFresh((record) => provider.writeFile(record.handle, path, typeof content === "string" ? new TextEncoder().encode(content) : content, parts.signal())),
    readFile: (path, maxBytes = READ_DEFAULT) => withFresh((record) => provider.readFile(record.handle, path, maxBytes, parts.signal())),
    async keep(name: string, command: string[]): Promise<KeptProcess> {
      const record = await current();
      const { id } = await provider.keep(record.handle, name, command, parts.signal());
      if (record.kept[name] !== id) await records.put({ ...record, kept: { ...record.kept, [name]: id } });
      return {
        id,
        // A lost kept process (its sandbox gone) is not recreated here: its variables are gone, which the model must see.
        send: (input: string, limits: RunLimits = {}): Promise<RunResult> => provider.send(record.handle, id, input, limits, parts.signal()),
        stop: async () => {
          // Stopping is destroying its sandbox's process; the provider has no separate route, so the record forgets it.
          const now = await records.get();
          if (now?.kept[name]) {
            const { [name]: _gone, ...rest } = now.kept;
            await records.put({ ...now, kept: rest });
          }
        },
      };
    },
    async destroy(): Promise<void> {
      const record = await records.get();
      if (!record) return;
      await provider.destroy(record.handle);
      await records.delete();
    },
  };
}

/** Destroys the session's sandbox, if it has one (the session object's expiry alarm). A provider error is left to the caller. */
export async function destroyRecorded(provider: SandboxProvider, records: SandboxRecords): Promise<void> {
  const record = await records.get();
  if (!record) return;
  await provider.destroy(record.handle);
  await records.delete();
}
