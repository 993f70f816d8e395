// The one adapter between the CLI and environment definitions run in Node: load one, check a row against it, verify in process.
// Only this file imports environments/<name>/index.ts and the SDK's in-process perform(): a refactor of the SDK touches it alone.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { describeEnvironment } from "../../environments/sdk/describe.js";
import type { Environment, Judge } from "../../environments/sdk/index.js";
import { JudgeError } from "../../environments/sdk/index.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import { type FunctionTool, issuesOf } from "../../protocol/index.js";
import { discoverEnvironments } from "../environments.js";
import { PROJECT_ROOT } from "../paths.js";

/** What the CLI needs of an environment, loaded in this process. */
export interface LoadedEnvironment {
  name: string;
  /** Names of the tools it serves (empty: the model's tool calls are only read by verify). */
  tools: string[];
  /** The tools exactly as the environment serves them (GET /tools), the form a row offers in responses_create_params.tools. */
  offered: FunctionTool[];
  /** The task fields' JSON schema (as a row's fields are read: input types), derived from the zod `task`. */
  taskSchema(): Record<string, unknown>;
  /** A stateful environment keeps session state (Durable Object); its verify cannot run without the session. */
  stateful: boolean;
  /** A gymnasium environment (reset/step): no /verify to re-run. */
  gymnasium: boolean;
  /** The row's task-field problems, as (path, message) pairs; empty when the row carries every field. */
  taskProblems(row: unknown): { path: string; message: string }[];
  definition: Environment;
}

const cache = new Map<string, Promise<LoadedEnvironment>>();

/** Loads environments/<name>/index.ts (its default export); unknown names are one clear error. */
export function loadEnvironment(name: string, root = PROJECT_ROOT): Promise<LoadedEnvironment> {
  let loaded = cache.get(`${root}:${name}`);
  if (!loaded) {
    loaded = load(name, root);
    cache.set(`${root}:${name}`, loaded);
  }
  return loaded;
}

async function load(name: string, root: string): Promise<LoadedEnvironment> {
  const known = discoverEnvironments(root);
  if (!known.includes(name)) throw new Error(`no environment "${name}" (known: ${known.join(", ")})`);
  const module = (await import(pathToFileURL(path.join(root, "environments", name, "index.ts")).href)) as { default: Environment };
  const definition = module.default;
  const gymnasium = definition.kind === "gymnasium";
  const offered = describeEnvironment(definition).tools;
  return {
    name,
    tools: offered.map((tool) => tool.name),
    offered,
    taskSchema() {
      const { $schema: _ignored, ...schema } = z.toJSONSchema(definition.task, { unrepresentable: "any", io: "input" }) as Record<string, unknown>;
      return schema;
    },
    stateful: definition.stateful,
    gymnasium,
    definition,
    taskProblems(row) {
      const parsed = definition.task.safeParse(row);
      return parsed.success ? [] : issuesOf(parsed.error).map((issue) => ({ path: issue.path.join("."), message: issue.message }));
    },
  };
}

/** Thrown by the judge stand-in: re-verification asks no model. */
class NoJudgeInReverify extends JudgeError {}

const NO_JUDGE_MESSAGE = "re-verification calls no model: this verify asked the LLM judge";

const refuseJudge: Judge = () => Promise.reject(new NoJudgeInReverify(NO_JUDGE_MESSAGE));

export type InProcessVerdict =
  | { kind: "verified"; body: Record<string, unknown> }
  | { kind: "needs_judge" }
  | { kind: "error"; status: number; message: string };

/** Runs the environment's verify on a recorded (row + response) in this process, with no session state and no judge. */
export async function verifyInProcess(environment: LoadedEnvironment, body: Record<string, unknown>): Promise<InProcessVerdict> {
  const definition = environment.definition;
  if (definition.kind === "gymnasium")
    return { kind: "error", status: 404, message: `${definition.name} is a gymnasium environment: it has no /verify to re-run` };
  const outcome = await perform(definition, { kind: "verify" }, body, {
    sessionId: "reverify",
    state: noState,
    signal: AbortSignal.timeout(60_000),
    judge: refuseJudge,
  });
  const answer = (outcome.body ?? {}) as Record<string, unknown>;
  if (outcome.status !== 200) {
    const error = answer.error as { message?: string } | undefined;
    return { kind: "error", status: outcome.status, message: error?.message ?? JSON.stringify(answer).slice(0, 300) };
  }
  if (answer._ng_failure_class === "judge_failed" && answer._ng_failure_judge_error === NO_JUDGE_MESSAGE) return { kind: "needs_judge" };
  return { kind: "verified", body: answer };
}
