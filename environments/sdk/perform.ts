// The resources-server operations (seed, tool call, verify) as plain functions, run in a Worker or a Durable Object.
import { EdgegymError, InvalidRequestError, type VerifyRequest, describeIssues, issuesOf } from "../../protocol/index.js";
import { JudgeError, type Judge } from "./judge.js";
import { normalizedForVerify } from "./mcp/names.js";
import { caught, failure, type Outcome, pick } from "./outcome.js";
import type { SimpleEnvironment, ToolContext, VerifyOutcome } from "./types.js";

export type { Outcome };
export type Operation = { kind: "seed_session" } | { kind: "verify" } | { kind: "tool"; name: string };

async function callTool(environment: SimpleEnvironment, name: string, body: unknown, ctx: ToolContext<unknown>): Promise<Outcome> {
  const tool = environment.tools.get(name);
  if (!tool) {
    const names = [...environment.tools.keys()];
    if (environment.mcpServers) {
      // Loaded only by an environment that has MCP servers: the others never run the SDK's client.
      const { callMcpTool, mcpListings } = await import("./mcp/sources.js");
      const answer = await callMcpTool(environment, name, body, ctx);
      if (answer) return answer;
      names.push(...(await mcpListings(environment, ctx)).map((listing) => listing.tool.name));
    }
    const known = names.join(", ") || "none";
    return failure(new EdgegymError(404, "unknown_tool", `${environment.name} has no tool "${name}" (tools: ${known})`));
  }
  // The model wrote these arguments: they are checked here, whoever forwarded them.
  const args = tool.definition.parameters.safeParse(body);
  if (!args.success) {
    // The agent hands this body back to the model, so it says which argument is wrong and how.
    const issues = issuesOf(args.error);
    return failure(new EdgegymError(422, "invalid_tool_arguments", `invalid arguments for ${name}: ${describeIssues(issues)}`, issues));
  }
  const result = await tool.definition.execute(args.data, ctx);
  return { status: 200, body: result === undefined ? null : result };
}

/**
 * An outside caller's body is checked whole; a trusted one (the agent's, over RPC: a row validated when it came in and a
 * response the model proxy built) has only its task fields parsed, and gets back only the verifier's fields.
 */
async function verify(environment: SimpleEnvironment, body: unknown, ctx: ToolContext<unknown>, trusted: boolean): Promise<Outcome> {
  const parsed = (trusted ? environment.task : environment.verifyRequest).safeParse(body);
  if (!parsed.success) return failure(new InvalidRequestError("verify request", parsed.error));
  const request = parsed.data as VerifyRequest;
  const echo = trusted ? pick(request, environment.taskKeys) : request;
  let outcome: VerifyOutcome;
  try {
    // The verifier sees bare tool names (`mcp__<env>__<tool>` → `<tool>`); the echo keeps what the model emitted.
    outcome = await environment.verify(normalizedForVerify(request, environment.name), ctx);
  } catch (error) {
    if (!(error instanceof JudgeError)) throw error;
    // NeMo Gym's judge_failsafe: reward 0, the row tagged so collection routes it to the failures, not the metrics.
    return { status: 200, body: { ...echo, reward: 0, _ng_failure_class: "judge_failed", _ng_failure_judge_error: error.message } };
  }
  if (typeof outcome.reward !== "number" || Number.isNaN(outcome.reward)) {
    throw new Error(`${environment.name}.verify returned a reward that is not a number: ${String(outcome.reward)}`);
  }
  // NeMo Gym's verify response is the request with the reward and the verifier's fields added.
  return { status: 200, body: { ...echo, ...outcome } };
}

async function seed(environment: SimpleEnvironment, body: unknown, ctx: ToolContext<unknown>): Promise<Outcome> {
  // No body at all is an empty row (NeMo Gym posts one so); a body of `null` is not a row.
  const row = environment.task.safeParse(body === undefined ? {} : body);
  if (!row.success) return failure(new InvalidRequestError("seed_session request", row.error));
  const result = await environment.seedSession?.(row.data, ctx);
  return { status: 200, body: result && typeof result === "object" ? result : {} };
}

/** A context without a judge (plain unit tests of a verifier): asking it fails the call, as an unreachable judge would. */
const noJudge: Judge = () => Promise.reject(new JudgeError("no judge is configured for this call"));

/** Run one operation; an exception inside a tool or verifier becomes a 500 envelope, never a crash. */
export async function perform(
  environment: SimpleEnvironment,
  operation: Operation,
  body: unknown,
  context: Omit<ToolContext<unknown>, "judge"> & { judge?: Judge },
  trusted = false,
): Promise<Outcome> {
  // Passed on as it is when it has a judge: a copy would read (and so make) a lazily made signal.
  const ctx: ToolContext<unknown> = context.judge ? (context as ToolContext<unknown>) : { ...context, judge: noJudge };
  try {
    switch (operation.kind) {
      case "seed_session":
        return await seed(environment, body, ctx);
      case "verify":
        return await verify(environment, body, ctx, trusted);
      case "tool":
        return await callTool(environment, operation.name, body, ctx);
    }
  } catch (error) {
    return caught(error, environment.name, operation.kind, operation.kind === "tool" ? "tool_error" : `${operation.kind}_error`);
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
