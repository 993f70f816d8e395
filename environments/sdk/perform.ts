// The resources-server operations (seed, tool call, verify) as plain functions, run in a Worker or a Durable Object.
import { z } from "zod";
import { EdgegymError, InvalidRequestError, issuesOf, describeIssues } from "../../protocol/index.js";
import type { Environment, ToolContext, VerifyOutcome } from "./define.js";
import { JudgeError, type Judge } from "./judge.js";

export type Operation = { kind: "seed_session" } | { kind: "verify" } | { kind: "tool"; name: string };

/** An operation's HTTP answer, plain data so it can cross a Durable Object RPC boundary. */
export interface Outcome {
  status: number;
  body: unknown;
}

function failure(error: EdgegymError): Outcome {
  return { status: error.status, body: error.toEnvelope() };
}

async function callTool(environment: Environment, name: string, body: unknown, ctx: ToolContext<unknown>): Promise<Outcome> {
  const tool = environment.tools.get(name);
  if (!tool) {
    const known = [...environment.tools.keys()].join(", ") || "none";
    return failure(new EdgegymError(404, "unknown_tool", `${environment.name} has no tool "${name}" (tools: ${known})`));
  }
  const args = tool.definition.parameters.safeParse(body);
  if (!args.success) {
    // The agent hands this body back to the model, so it says which argument is wrong and how.
    const issues = issuesOf(args.error);
    return failure(new EdgegymError(422, "invalid_tool_arguments", `invalid arguments for ${name}: ${describeIssues(issues)}`, issues));
  }
  const result = await tool.definition.execute(args.data, ctx);
  return { status: 200, body: result === undefined ? null : result };
}

async function verify(environment: Environment, body: unknown, ctx: ToolContext<unknown>): Promise<Outcome> {
  const request = environment.verifyRequest.safeParse(body);
  if (!request.success) return failure(new InvalidRequestError("verify request", request.error));
  let outcome: VerifyOutcome;
  try {
    outcome = await environment.verify(request.data, ctx);
  } catch (error) {
    if (!(error instanceof JudgeError)) throw error;
    // NeMo Gym's judge_failsafe: reward 0, the row tagged so collection routes it to the failures, not the metrics.
    return { status: 200, body: { ...request.data, reward: 0, _ng_failure_class: "judge_failed", _ng_failure_judge_error: error.message } };
  }
  if (typeof outcome.reward !== "number" || Number.isNaN(outcome.reward)) {
    throw new Error(`${environment.name}.verify returned a reward that is not a number: ${String(outcome.reward)}`);
  }
  // NeMo Gym's verify response is the request with the reward and the verifier's fields added.
  return { status: 200, body: { ...request.data, ...outcome } };
}

async function seed(environment: Environment, body: unknown, ctx: ToolContext<unknown>): Promise<Outcome> {
  const row = environment.seedRequest.safeParse(body ?? {});
  if (!row.success) return failure(new InvalidRequestError("seed_session request", row.error));
  const result = await environment.seedSession?.(row.data, ctx);
  return { status: 200, body: result && typeof result === "object" ? result : {} };
}

/** A context without a judge (plain unit tests of a verifier): asking it fails the call, as an unreachable judge would. */
const noJudge: Judge = () => Promise.reject(new JudgeError("no judge is configured for this call"));

/** Run one operation; an exception inside a tool or verifier becomes a 500 envelope, never a crash. */
export async function perform(
  environment: Environment,
  operation: Operation,
  body: unknown,
  context: Omit<ToolContext<unknown>, "judge"> & { judge?: Judge },
): Promise<Outcome> {
  const ctx: ToolContext<unknown> = { ...context, judge: context.judge ?? noJudge };
  try {
    switch (operation.kind) {
      case "seed_session":
        return await seed(environment, body, ctx);
      case "verify":
        return await verify(environment, body, ctx);
      case "tool":
        return await callTool(environment, operation.name, body, ctx);
    }
  } catch (error) {
    if (error instanceof EdgegymError) return failure(error);
    if (error instanceof z.ZodError) return failure(new InvalidRequestError(operation.kind, error));
    const message = error instanceof Error ? error.message : String(error);
    const code = operation.kind === "tool" ? "tool_error" : `${operation.kind}_error`;
    return failure(new EdgegymError(500, code, `${environment.name}: ${message}`));
  }
}

/** State for an environment that declared none: using it is a programming error, said plainly. */
export const noState = {
  get(): Promise<never> {
    return Promise.reject(new Error("this environment declares no `state`; add one to keep session state"));
  },
  set(): Promise<never> {
    return Promise.reject(new Error("this environment declares no `state`; add one to keep session state"));
  },
};
