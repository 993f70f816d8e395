// Which loop an environment needs: its Worker's GET /tools says `kind: "gymnasium"` (reset/step) or not (NeMo Gym's simple agent).
import { z } from "zod";
import { RolloutFailure } from "./failure.js";

export interface EnvironmentKind {
  kind: "simple" | "gymnasium";
  /** The environment's own max_steps (NeMo Gym's per-agent config), when it declares one. */
  maxSteps?: number;
}

const ToolsAnswer = z.looseObject({
  kind: z.string().optional(),
  max_steps: z.number().int().positive().optional(),
});

// An environment's kind only changes when it is redeployed; a few minutes of caching per isolate is plenty.
// Only answers are cached, never a request in flight: a Worker must not await I/O another request started.
const TTL_MS = 5 * 60_000;
const MAX_ENTRIES = 128;
const cache = new Map<string, { value: EnvironmentKind; expires: number }>();

async function lookUp(name: string, fetcher: Fetcher, signal: AbortSignal): Promise<EnvironmentKind> {
  let answer: Response;
  try {
    answer = await fetcher.fetch("http://internal/tools", { signal });
  } catch (error) {
    if (signal.aborted) throw new RolloutFailure("timeout", `${name}'s GET /tools did not answer in time`);
    throw new RolloutFailure("environment_error", `${name}'s GET /tools failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await answer.text();
  if (!answer.ok) throw new RolloutFailure("environment_error", `${name}'s GET /tools answered ${answer.status}: ${text.slice(0, 500)}`, answer.status);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new RolloutFailure("environment_error", `${name}'s GET /tools answered with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  const parsed = ToolsAnswer.safeParse(body);
  if (!parsed.success) throw new RolloutFailure("environment_error", `${name}'s GET /tools answered an unexpected body: ${parsed.error.message}`);
  return { kind: parsed.data.kind === "gymnasium" ? "gymnasium" : "simple", maxSteps: parsed.data.max_steps };
}

/** The environment's kind, asked once per isolate and kept a few minutes; a failed lookup is not kept. */
export async function environmentKind(name: string, fetcher: Fetcher, signal: AbortSignal): Promise<EnvironmentKind> {
  const hit = cache.get(name);
  if (hit && hit.expires > Date.now()) return hit.value;
  const value = await lookUp(name, fetcher, signal);
  cache.delete(name);
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(name, { value, expires: Date.now() + TTL_MS });
  return value;
}

/** For tests: forget what was learnt. */
export function clearEnvironmentKinds(): void {
  cache.clear();
}
