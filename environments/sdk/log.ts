// An environment Worker's logs: its logger (at its LOG_LEVEL), and a line for every operation that failed on its side.
import type { EnvironmentEnv } from "../../contracts/env.generated.js";
import type { Outcome, SessionOperation } from "../../contracts/rpc.js";
import { type Logger, logLevelOf, workerLogger } from "../../http/log.js";

/** The environment's logger at its LOG_LEVEL (read alone, so an environment whose other variables are wrong still logs). */
export function environmentLog(env: EnvironmentEnv, environment: string): Logger {
  return workerLogger(`resources-${environment}`, logLevelOf(env.LOG_LEVEL)).child({ environment });
}

/**
 * A 5xx outcome is the environment's own failure (a tool or verifier that threw): logged, with what it said. The logger
 * is made only then: most operations succeed, and a child logger per operation showed in every tool call's CPU.
 */
export function logOutcome(log: () => Logger, operation: SessionOperation, outcome: Outcome, started: number): Outcome {
  if (outcome.status >= 500) {
    const error = (outcome.body as { error?: { code?: string; message?: string } } | null)?.error;
    log().error("operation failed", {
      operation: operation.kind === "tool" ? `tool ${operation.name}` : operation.kind,
      outcome: error?.code ?? outcome.status,
      error: error?.message,
      duration_ms: Date.now() - started,
    });
  }
  return outcome;
}
