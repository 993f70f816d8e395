// A remote environment (issue 24): a NeMo Gym resources server edgegym drives over HTTP, registered by configuration,
// served to the agent, gateway and writer as the same EnvironmentRpc a native environment's Worker offers. Types only.
// Protocol facts: nemo_gym/base_resources_server.py (routes: POST /seed_session, POST /verify, POST /aggregate_metrics,
// GET /reverify_mode; ReverifyMode stateless|unsupported|unknown), nemo_gym/server_utils.py (SessionMiddleware with
// session_cookie = the server's session key: the cookie's NAME differs per server, so every Set-Cookie is carried back),
// responses_api_agents/simple_agent/app.py (seed → POST /<tool> with the arguments as the JSON body → verify, each
// request carrying the cookies the previous answer set).
import type { McpToolSourceConfig } from "./mcp.js";
import type { AggregateMetrics, DatasetRow, FunctionTool, VerifyRequest } from "../protocol/index.js";

/** How edgegym authenticates to the server. Secrets are named, never inlined: config files and records stay clean. */
export type RemoteAuth =
  | { kind: "none" }
  | {
      kind: "bearer";
      /** The secret (Worker secret / env var) holding the token. */
      secret: string;
    }
  | {
      kind: "headers";
      /** Header name → the secret holding its value. */
      secrets: Record<string, string>;
    };

/** NeMo Gym's ReverifyMode (GET /reverify_mode); `unknown` when the server has no such route. */
export type ReverifyMode = "stateless" | "unsupported" | "unknown";

/** One remote environment, as a config file entry (`npm run dev`, `collect`), an SST entry, or the AWS stack's. */
export interface RemoteEnvironmentConfig {
  /** lower_snake_case, unique among native and remote environments: it names the binding `ENV_<NAME>` and the routes. */
  name: string;
  description?: string;
  /** One base URL, or several serving the same server (a pool). A session stays on the URL it was seeded on. */
  baseUrls: string[];
  auth: RemoteAuth;
  timeouts: {
    /** Connecting and sending; a call that failed here provably did not run, so it may be retried on another URL. */
    connectMs: number;
    /** Per call (seed, tool, verify), cut by the rollout's deadline. */
    callMs: number;
  };
  /** Calls in flight to this environment at once, per pool member (the server's own capacity). */
  concurrency: number;
  /**
   * Whether the server keeps state between calls of a session. Either way the cookie is carried (NeMo Gym always sets
   * one); a stateful server's lost session (restart) is a failure, a stateless one's is not.
   */
  stateful: boolean;
  /** The tools: those each row offers (responses_create_params.tools, the default) or a fixed list from this config. */
  tools: { from: "row" } | { from: "config"; tools: FunctionTool[] };
  /**
   * MCP servers (Streamable HTTP) whose tools join the server's: listed by describe, and a call to one of their tools goes
   * to its MCP server from the session's Durable Object (in its own MCP session when `per_session`), never to the NeMo
   * Gym server, whose /verify then sees the call in the response like any other.
   */
  mcpServers?: McpToolSourceConfig[];
  /** Overrides what GET /reverify_mode says; absent: asked once per isolate. */
  reverify?: ReverifyMode;
  /** Whether the server answers POST /aggregate_metrics; else edgegym computes NeMo Gym's default metrics itself. */
  aggregateMetrics: boolean;
  /** Bytes of a response body read at most; a larger answer is `remote_bad_answer`. */
  maxResponseBytes: number;
  /** An answer's Set-Cookie headers are kept at most this many bytes in all. */
  maxCookieBytes: number;
}

/** What a remote session keeps between calls (in its Durable Object, or the in-process session map on AWS). */
export interface RemoteSession {
  /** The pool member it was seeded on: every later call goes there. */
  baseUrl: string;
  /** The `Cookie` header to send: name=value pairs from every Set-Cookie so far (never logged, never in a record). */
  cookie: string;
}

/** A remote call's answer: NeMo Gym's HTTP status and JSON body, and the session as it stands after it. */
export interface RemoteAnswer {
  status: number;
  body: unknown;
  session: RemoteSession;
}

/**
 * The HTTP surface edgegym calls, one method per NeMo Gym route. Implemented once over fetch (environments/sdk/remote/
 * client.ts); a Worker and a Lambda use the same client.
 */
export interface RemoteCalls {
  /** POST /seed_session with the row as the body; picks a pool member (skipping one marked down) and starts the cookie jar. */
  seedSession(row: DatasetRow, signal: AbortSignal): Promise<RemoteAnswer>;
  /** POST /<name> with the arguments as the body, on the session's member with its cookie. Never retried once sent. */
  tool(session: RemoteSession, name: string, args: unknown, signal: AbortSignal): Promise<RemoteAnswer>;
  /** POST /verify with the whole verify request (the server scores what it needs; its answer is NeMo Gym's verify response). */
  verify(session: RemoteSession, request: VerifyRequest, signal: AbortSignal): Promise<RemoteAnswer>;
  /** POST /aggregate_metrics with `{ verify_responses }` on any member. */
  aggregateMetrics(verifyResponses: unknown[], signal: AbortSignal): Promise<AggregateMetrics>;
  /** GET /reverify_mode; `unknown` on 404. */
  reverifyMode(signal: AbortSignal): Promise<ReverifyMode>;
}

/**
 * A remote server's faults, each to a rollout outcome (the agent's codes, functions/agent/failure.ts → contracts/
 * failures.ts classes). Retry rule: only a call that provably did not reach the server (connect refused/reset before
 * sending, DNS) is retried, on another pool member for seed and on the same member otherwise, within the deadline.
 * - `remote_unreachable` (refused, reset, DNS, TLS): seed → seed_failed (tool_error); tool/verify → environment_error.
 * - `remote_timeout` (sent, no answer in callMs or by the deadline): tool_timeout.
 * - `remote_status` (5xx; 4xx other than the tool's own): a tool's answer is shown to the model, as NeMo Gym's agent does
 *   with any status; seed/verify → seed_failed / verify_failed.
 * - `remote_bad_answer` (not JSON, over maxResponseBytes, verify without a numeric reward): verify_failed, or the tool's
 *   error envelope the model sees.
 * - `remote_session_lost` (the server no longer knows the cookie's session: a stateful server restarted): the rollout is
 *   retried whole (environment_error), never continued on a blank state.
 * A pool member with N failures in a row is skipped for new sessions for a cool-down; a job never waits on one.
 */
export type RemoteFault = "remote_unreachable" | "remote_timeout" | "remote_status" | "remote_bad_answer" | "remote_session_lost";

/**
 * How it plugs in: a remote environment is an `EnvironmentService` under `ENV_<NAME>` like any other, so
 * contracts/environments.ts environmentService, functions/agent/resolve.ts and kind.ts see no difference:
 * - Cloudflare: one generic Worker per remote entry, generated by infra/remote.ts from its config (as
 *   infra/environments.ts generates native entries), whose `RemoteEntrypoint implements EnvironmentRpc`: describe() →
 *   `kind: "simple"`, the configured tools (or none, when they come from the row), `stateful`; seed() mints edgegym's
 *   session id (run.ts, unchanged) and keeps the RemoteSession in that session's Durable Object, always (the cookie must
 *   live somewhere even for a stateless server); tool()/verify() go through the object; its HTTP app is the same Hono app
 *   outside callers use (/seed_session, /<tool>, /verify), so /run, jobs and discovery are unchanged;
 * - AWS / in process: `remoteEnvironment(config): EnvironmentRpc` (environments/sdk/remote/in-process.ts) with the same
 *   client and a session map, as environments/sdk/in-process.ts does for native ones;
 * - the deployment's ENVIRONMENTS list gains remote names (names must not clash with a folder under environments/).
 */
export interface RemoteEnvironmentDeployment {
  config: RemoteEnvironmentConfig;
  /** Where it came from (file:line, SST entry), for errors that name it. */
  origin: string;
}
