// One rollout of a gymnasium environment, as NeMo Gym's gymnasium_agent runs it: reset → (model → step)* until terminated, truncated or max_steps.
import { z } from "zod";
import { ContentPart, type DatasetRow, type Item, type MessageItem, type Response as ResponsesResponse, type Usage } from "../../protocol/index.js";
import { environmentCall, expectOk, modelTurn, type RolloutLimits, type RolloutParts } from "./calls.js";
import { type FailureClass, RolloutFailure } from "./failure.js";
import { accumulateUsage } from "./usage.js";

// An environment is a Worker of its own (any code behind the RPC surface): its small answers are checked here, where the
// loop depends on their shape; the conversation items are not parsed again.
const Info = z.record(z.string(), z.unknown());
const ResetAnswer = z.object({ observation: z.string().nullish(), info: Info.nullish() });
type ResetAnswer = z.infer<typeof ResetAnswer>;
// NeMo Gym's EnvStepResponse defaults: a field the environment leaves out is 0 / false / {}.
const StepAnswer = z.object({
  observation: z.string().nullish(),
  reward: z.number().default(0),
  terminated: z.boolean().default(false),
  truncated: z.boolean().default(false),
  info: Info.nullish(),
});
type StepAnswer = z.infer<typeof StepAnswer>;
const ToolOutputs = z.array(z.looseObject({ call_id: z.string(), output: z.union([z.string(), z.array(ContentPart)]) }));

function parsed<T extends z.ZodType>(schema: T, value: unknown, what: string, failure: FailureClass): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ");
  throw new RolloutFailure(failure, `${what} answered a body of the wrong shape: ${problems}`);
}

function userMessage(content: string): MessageItem {
  return { type: "message", role: "user", content };
}

async function callStep(
  row: DatasetRow,
  response: ResponsesResponse,
  sessionId: string,
  idempotent: boolean,
  parts: RolloutParts,
  limits: RolloutLimits,
): Promise<StepAnswer> {
  // An environment that deduplicates steps gets a fresh id per step (NeMo Gym's _ng_step_request_id).
  const body = { ...row, response, ...(idempotent ? { _ng_step_request_id: crypto.randomUUID().replace(/-/g, "") } : {}) };
  const answer = await environmentCall(() => parts.resources.step(sessionId, body, parts.owner), "/step", limits, "step_failed");
  return parsed(StepAnswer, expectOk(answer, "/step", "step_failed"), "/step", "step_failed");
}

/** Drives an episode that /reset opened; the caller owns closing it. */
async function runEpisode(
  row: DatasetRow,
  reset: ResetAnswer,
  sessionId: string,
  parts: RolloutParts,
  limits: RolloutLimits,
): Promise<Record<string, unknown>> {
  const params = row.responses_create_params;
  const input: Item[] = typeof params.input === "string" ? [userMessage(params.input)] : [...params.input];
  if (reset.observation) input.push(userMessage(reset.observation));
  const idempotent = reset.info?.["supports_step_idempotency"] === true;

  const produced: Item[] = [];
  let usage: Usage | undefined;
  let last: ResponsesResponse | undefined;
  let total = 0;
  let step: StepAnswer = { observation: null, reward: 0, terminated: false, truncated: true, info: {} };
  let finished = false;

  for (let i = 0; i < limits.maxSteps; i++) {
    last = await modelTurn(parts, { ...params, input: [...input, ...produced] }, sessionId, limits);
    produced.push(...last.output);
    usage = accumulateUsage(usage, last.usage);

    step = await callStep(row, last, sessionId, idempotent, parts, limits);
    total += step.reward;
    if (step.terminated || step.truncated) {
      finished = true;
      break;
    }
    const toolOutputs = parsed(ToolOutputs, step.info?.["tool_outputs"] ?? [], "/step's info.tool_outputs", "step_failed");
    for (const { call_id, output } of toolOutputs) produced.push({ type: "function_call_output", call_id, output, id: null, status: null });
    // An empty observation adds nothing, as in NeMo Gym (it tests the string's truth).
    if (step.observation) produced.push(userMessage(step.observation));
  }

  if (!last) throw new RolloutFailure("model_error", "max_steps allowed no model call");
  return {
    // NeMo Gym's record carries the request as the model first saw it: the input with the reset observation.
    responses_create_params: { ...params, input },
    response: { ...last, output: produced, usage: usage ?? null },
    reward: total,
    terminated: step.terminated,
    // Running out of steps is a truncation, whatever the last step said.
    truncated: finished ? step.truncated : true,
    info: step.info ?? {},
  };
}

async function close(parts: RolloutParts, sessionId: string, limits: RolloutLimits): Promise<void> {
  expectOk(await environmentCall(() => parts.resources.close(sessionId, parts.owner), "/close", limits, "step_failed"), "/close", "step_failed");
}

function errorType(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

/** Runs one gymnasium rollout and returns NeMo Gym's gymnasium run response for it. */
export async function runGymnasiumRollout(row: DatasetRow, parts: RolloutParts, limits: RolloutLimits): Promise<Record<string, unknown>> {
  const reset = await environmentCall(() => parts.resources.reset(row, parts.owner), "/reset", limits, "reset_failed");
  const resetBody = expectOk(reset, "/reset", "reset_failed");
  const sessionId = reset.sessionId;
  const info = (resetBody as { info?: unknown } | null)?.info;
  // An environment that holds a slot per episode says so; it is closed however the rollout ends.
  const explicitClose = typeof info === "object" && info !== null && (info as Record<string, unknown>)["supports_explicit_close"] === true;

  let result: Record<string, unknown>;
  try {
    result = await runEpisode(row, parsed(ResetAnswer, resetBody, "/reset", "reset_failed"), sessionId, parts, limits);
  } catch (error) {
    // The rollout's own failure is what the caller sees; a close that fails too is not reported over it.
    // The deadline may be what ended the rollout: the close gets a time of its own.
    if (explicitClose) await close(parts, sessionId, { ...limits, deadlineAt: Date.now() + limits.toolTimeoutMs }).catch(() => undefined);
    throw error;
  }
  if (!explicitClose) return result;
  try {
    await close(parts, sessionId, limits);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    result.info = { ...(result.info as Record<string, unknown>), cleanup_warning: { operation: "close", error_type: errorType(error), message } };
  }
  return result;
}
