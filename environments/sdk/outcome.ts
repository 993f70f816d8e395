// An operation's answer as plain data (it crosses RPC boundaries), and how errors become one.
import { z } from "zod";
import type { Outcome } from "../../contracts/rpc.js";
import { EdgegymError, InvalidRequestError } from "../../protocol/index.js";

export type { Outcome };

export function failure(error: EdgegymError): Outcome {
  return { status: error.status, body: error.toEnvelope() };
}

/** An exception from an environment's own code: a 4xx when it is the input's fault, else a 500 naming the operation. */
export function caught(error: unknown, environment: string, operation: string, code: string): Outcome {
  if (error instanceof EdgegymError) return failure(error);
  if (error instanceof z.ZodError) return failure(new InvalidRequestError(operation, error));
  const message = error instanceof Error ? error.message : String(error);
  return failure(new EdgegymError(500, code, `${environment}: ${message}`));
}

/** The fields of a parsed row that are the environment's task fields. */
export function pick(row: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (row[key] !== undefined) out[key] = row[key];
  return out;
}
