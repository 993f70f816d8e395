// The RPC surface of an environment's session Durable Object, as the Worker in front of it sees it.
import type { Operation, Outcome } from "./perform.js";

export interface EnvironmentSessionRpc {
  perform(operation: Operation, body: unknown, sessionId: string): Promise<Outcome>;
}

/** Typed loosely on purpose: the class is made per environment at build time, its RPC shape is fixed. */
export type EnvironmentSessionNamespace = DurableObjectNamespace;
