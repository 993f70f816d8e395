// The RPC surface of an environment's session Durable Object, as the Worker in front of it sees it.
import type { AnyOperation } from "./gymnasium-perform.js";
import type { Outcome } from "./perform.js";

export interface EnvironmentSessionRpc {
  /** A resources-server operation, or a gymnasium one (reset, step, close). */
  perform(operation: AnyOperation, body: unknown, sessionId: string): Promise<Outcome>;
}

/** Typed loosely on purpose: the class is made per environment at build time, its RPC shape is fixed. */
export type EnvironmentSessionNamespace = DurableObjectNamespace;
