// The gymnasium operations (reset, step, close) as plain functions, run in a Worker or a session's Durable Object.
import { z } from "zod";
import { EdgegymError, InvalidRequestError } from "../../protocol/index.js";
import type { Environment, ToolContext } from "./define.js";
import type { GymnasiumSpec } from "./gymnasium.js";
import { perform, type Operation, type Outcome } from "./perform.js";

export type GymnasiumOperation = { kind: "reset" } | { kind: "step" } | { kind: "close" };
export type AnyOperation = Operation | GymnasiumOperation;

const GYMNASIUM_KINDS = new Set(["reset", "step", "close"]);

export function isGymnasiumOperation(operation: AnyOperation): operation is GymnasiumOperation {
  return GYMNASIUM_KINDS.has(operation.kind);
}

const Info = z.record(z.string(), z.unknown());

/** What a reset returns, checked: a wrong shape is the environment's bug, said plainly. */
const ResetResult = z.object({ observation: z.string().nullish(), info: Info.nullish() }).nullish();

const StepResult = z.object({
  observation: z.string().nullish(),
  reward: z.number().refine(Number.isFinite, "must be a finite number"),
  terminated: z.boolean(),
  truncated: z.boolean(),
  info: Info.nullish(),
});

function checked<T extends z.ZodType>(schema: T, value: unknown, what: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ");
  throw new Error(`${what} returned a value of the wrong shape: ${problems}`);
}

/** NeMo Gym's close_session: the environment's own cleanup, then the session's state is forgotten. */
async function closeSession(spec: GymnasiumSpec, ctx: ToolContext<unknown>): Promise<unknown> {
  const summary = await spec.close?.(ctx);
  await ctx.state.clear?.();
  return summary;
}

async function reset(environment: Environment, spec: GymnasiumSpec, body: unknown, ctx: ToolContext<unknown>): Promise<Outcome> {
  const row = spec.resetRequest.safeParse(body);
  if (!row.success) return failure(new InvalidRequestError("reset request", row.error));
  const result = checked(ResetResult, await spec.reset?.(row.data, ctx), `${environment.name}.reset`);
  return { status: 200, body: { observation: result?.observation ?? null, info: result?.info ?? {} } };
}

async function step(environment: Environment, spec: GymnasiumSpec, body: unknown, ctx: ToolContext<unknown>): Promise<Outcome> {
  const request = spec.stepRequest.safeParse(body);
  if (!request.success) return failure(new InvalidRequestError("step request", request.error));
  const { response, ...row } = request.data;
  const result = checked(StepResult, await spec.step(response, row, ctx), `${environment.name}.step`);
  if (result.terminated || result.truncated) await closeSession(spec, ctx);
  return {
    status: 200,
    body: {
      observation: result.observation ?? null,
      reward: result.reward,
      terminated: result.terminated,
      truncated: result.truncated,
      info: result.info ?? {},
    },
  };
}

async function close(spec: GymnasiumSpec, ctx: ToolContext<unknown>, stateful: boolean): Promise<Outcome> {
  const alreadyClosed = stateful ? (await ctx.state.get()) === undefined : false;
  const summary = await closeSession(spec, ctx);
  return { status: 200, body: { ok: true, already_closed: alreadyClosed, summary: summary && typeof summary === "object" ? summary : {} } };
}

function failure(error: EdgegymError): Outcome {
  return { status: error.status, body: error.toEnvelope() };
}

/** Run one gymnasium operation; an exception in reset/step/close becomes a 500 envelope, never a crash. */
export async function performGymnasium(environment: Environment, operation: GymnasiumOperation, body: unknown, ctx: ToolContext<unknown>): Promise<Outcome> {
  const spec = environment.gymnasium;
  if (!spec) return failure(new EdgegymError(404, "not_gymnasium", `${environment.name} serves /seed_session, tools and /verify, not /${operation.kind}`));
  try {
    switch (operation.kind) {
      case "reset":
        return await reset(environment, spec, body, ctx);
      case "step":
        return await step(environment, spec, body, ctx);
      case "close":
        return await close(spec, ctx, environment.stateful);
    }
  } catch (error) {
    if (error instanceof EdgegymError) return failure(error);
    if (error instanceof z.ZodError) return failure(new InvalidRequestError(operation.kind, error));
    const message = error instanceof Error ? error.message : String(error);
    return failure(new EdgegymError(500, `${operation.kind}_error`, `${environment.name}: ${message}`));
  }
}

/** Either kind of operation, for the session Durable Object that runs both. */
export function performAny(environment: Environment, operation: AnyOperation, body: unknown, ctx: ToolContext<unknown>): Promise<Outcome> {
  return isGymnasiumOperation(operation) ? performGymnasium(environment, operation, body, ctx) : perform(environment, operation, body, ctx);
}
