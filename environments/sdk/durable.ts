// One Durable Object per session: it runs the stateful environment's operations next to the session's state.
import { DurableObject } from "cloudflare:workers";
import type { EnvironmentEnv } from "../../contracts/env.generated.js";
import type { Outcome, SessionOperation, SessionRpc } from "../../contracts/rpc.js";
import { performAny } from "./gymnasium-perform.js";
import { storedMcpSessions } from "./mcp/records.js";
import { secretReader, toolContext } from "./context.js";
import { plainData } from "./plain.js";
import { environmentConfig } from "./config.js";
import { environmentLog, logOutcome } from "./log.js";
import { EXPIRED_SESSION, OPERATION_TIMEOUT_MS } from "./refusals.js";
import { sandboxProvider } from "./sandbox/provider-config.js";
import { destroyRecorded, type SandboxRecords } from "./sandbox/session-sandbox.js";
import type { Environment, SessionState } from "./types.js";

const STATE_KEY = "state";
/** Written when the session opens; gone once the alarm has deleted everything, so a late call is told so, not run afresh. */
const OPENED_KEY = "opened";
/** The session's sandbox record (contracts/sandbox.ts SandboxRecord): written before the sandbox is first used. */
const SANDBOX_KEY = "sandbox";

/**
 * A session of a stateful environment, one Durable Object per session id (the `SESSIONS` namespace). Each environment's
 * generated Worker entry (infra/environments.ts) subclasses it as `EnvironmentSession`, naming the environment.
 * Responsibilities: run the session's operations one at a time next to its state (`ctx.state`, `ctx.sql`); refuse an
 * operation on a session never opened or already expired; delete everything by alarm once the session goes unused.
 */
export abstract class EnvironmentSession extends DurableObject<EnvironmentEnv> implements SessionRpc {
  /** The environment whose operations run here (an instance field: not exposed over RPC). */
  protected abstract readonly environment: Environment;

  readonly #state: SessionState<unknown> = {
    get: () => this.ctx.storage.get(STATE_KEY),
    set: (value) => this.ctx.storage.put(STATE_KEY, value),
    clear: async () => {
      await this.ctx.storage.delete(STATE_KEY);
    },
  };

  readonly #sandboxRecords: SandboxRecords = {
    get: () => this.ctx.storage.get(SANDBOX_KEY),
    put: (record) => this.ctx.storage.put(SANDBOX_KEY, record),
    delete: async () => {
      await this.ctx.storage.delete(SANDBOX_KEY);
    },
  };

  readonly #mcpSessions = storedMcpSessions(this.ctx.storage);

  /** When this session's clean-up alarm fires, as last set or read (undefined: not read yet; null: none). */
  #alarmAt: number | null | undefined;

  /**
   * Whether this session was opened, as this object last wrote or read it (undefined: not known, ask storage). Only
   * perform() writes the mark and only alarm() deletes it, both here, so once seen it holds until the alarm runs: a
   * later call skips the storage read.
   */
  #opened: true | undefined;

  /** Operations of one session run one at a time here, so tool calls see each other's writes in order. */
  async perform(operation: SessionOperation, body: unknown, sessionId: string, trusted: boolean, opens = false): Promise<Outcome> {
    if (!opens && !(await this.#isOpen())) return EXPIRED_SESSION;
    const started = Date.now();
    // The operation's signal is made only if a tool, verifier or judge reads it (most never do).
    let signal: AbortSignal | undefined;
    const bound = () => (signal ??= AbortSignal.timeout(OPERATION_TIMEOUT_MS));
    const spec = this.environment.sandbox;
    const sandbox = spec ? { spec, provider: () => sandboxProvider(this.env), records: this.#sandboxRecords } : undefined;
    const context = toolContext({
      sessionId,
      state: this.#state,
      signal: bound,
      models: { judge: this.env.JUDGE },
      secrets: this.env,
      sql: this.ctx.storage.sql,
      mcpSessions: this.#mcpSessions,
      sandbox,
    });
    const outcome = await performAny(this.environment, operation, body, context, trusted);
    // Marked after the operation, not before: a write opens SQLite's implicit transaction, inside which an
    // environment's own PRAGMAs (text_to_sql turns foreign keys off) would do nothing.
    if (opens) {
      await this.ctx.storage.put(OPENED_KEY, Date.now());
      this.#opened = true;
    }
    await this.#keepAlive();
    return logOutcome(() => environmentLog(this.env, this.environment.name), operation, { ...outcome, body: plainData(outcome.body) }, started);
  }

  async #isOpen(): Promise<boolean> {
    if (this.#opened) return true;
    if ((await this.ctx.storage.get(OPENED_KEY)) === undefined) return false;
    this.#opened = true;
    return true;
  }

  /**
   * An abandoned session cleans itself up between SESSION_TTL_SECONDS and half as long again after its last use: the
   * alarm is pushed out only when it would fire within the TTL, one storage write per half-lifetime of use instead of
   * one per operation (each a commit the operation's answer waits for).
   */
  async #keepAlive(): Promise<void> {
    const ttl = environmentConfig(this.env).SESSION_TTL_SECONDS * 1000;
    if (this.#alarmAt === undefined) this.#alarmAt = await this.ctx.storage.getAlarm();
    const now = Date.now();
    if (this.#alarmAt !== null && this.#alarmAt - now >= ttl) return;
    this.#alarmAt = now + ttl * 1.5;
    await this.ctx.storage.setAlarm(this.#alarmAt);
  }

  override async alarm(): Promise<void> {
    this.#alarmAt = null;
    // Forgotten first: whatever this alarm manages to delete, a later call asks storage again.
    this.#opened = undefined;
    // The sandbox first: if its provider fails, this throws before the record is gone and the runtime retries the alarm.
    if (this.environment.sandbox && (await this.#sandboxRecords.get())) await destroyRecorded(sandboxProvider(this.env), this.#sandboxRecords);
    if (this.environment.kind === "simple" && this.environment.mcpServers) {
      // Loaded only by an environment that has MCP servers, as perform.ts does.
      const { endMcpSessions } = await import("./mcp/sources.js");
      await endMcpSessions(this.environment, this.#mcpSessions, secretReader(this.env));
    }
    await this.ctx.storage.deleteAll();
    // And again: a call that came in while the sandbox or an MCP server was being reached may have read the mark.
    this.#opened = undefined;
  }
}
