// The gymnasium operations (reset, step, close) as plain functions, run in a Worker or a session's Durable Object.
import { z } from "zod";
import type { SessionOperation } from "../../contracts/rpc.js";
import { EdgegymError, InvalidRequestError, type Response } from "../../protocol/index.js";
import { useResetStep } from "./gymnasium.js";
import { caught, failure, type Outcome } from "./outcome.js";
import { type Operation, perform } from "./perform.js";
import type { Environment, GymnasiumEnvironment, ToolContext } from "./types.js";

export type GymnasiumOperation = { kind: "reset" } | { kind: "step" } | { kind: "close" };
export type AnyOperation = SessionOperation;

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
async function closeSession(environment: GymnasiumEnvironment, ctx: ToolContext<unknown>): Promise<unknown> {
  const summary = await environment.close?.(ctx);
  await ctx.state.clear?.();
  return summary;
}

/** An outside caller's request is checked whole; the agent's (trusted, over RPC) has only its task fields parsed. */
function requestSchema(environment: GymnasiumEnvironment, kind: "reset" | "step", trusted: boolean): z.ZodType<Record<string, unknown>> {
  if (trusted) return environment.task;
  return kind === "reset" ? environment.resetRequest : environment.stepRequest;
}

async function reset(environment: GymnasiumEnvironment, body: unknown, ctx: ToolContext<unknown>, trusted: boolean): Promise<Outcome> {
  const row = requestSchema(environment, "reset", trusted).safeParse(body);
  if (!row.success) return failure(new InvalidRequestError("reset request", row.error));
  const result = checked(ResetResult, await environment.reset?.(row.data, ctx), `${environment.name}.reset`);
  return { status: 200, body: { observation: result?.observation ?? null, info: result?.info ?? {} } };
}

async function step(environment: GymnasiumEnvironment, body: unknown, ctx: ToolContext<unknown>, trusted: boolean): Promise<Outcome> {
  const request = requestSchema(environment, "step", trusted).safeParse(body);
  if (!request.success) return failure(new InvalidRequestError("step request", request.error));
  const { response, ...row } = request.data as Record<string, unknown> & { response: Response };
  const result = checked(StepResult, await environment.step(response, row, ctx), `${environment.name}.step`);
  if (result.terminated || result.truncated) await closeSession(environment, ctx);
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

async function close(environment: GymnasiumEnvironment, ctx: ToolContext<unknown>): Promise<Outcome> {
  const alreadyClosed = environment.stateful ? (await ctx.state.get()) === undefined : false;
  const summary = await closeSession(environment, ctx);
  return { status: 200, body: { ok: true, already_closed: alreadyClosed, summary: summary && typeof summary === "object" ? summary : {} } };
}

/** Run one gymnasium operation; an exception in reset/step/close becomes a 500 envelope, never a crash. */
export async function performGymnasium(
  environment: GymnasiumEnvironment,
  operation: GymnasiumOperation,
  body: unknown,
  ctx: ToolContext<unknown>,
  trusted = false,
): Promise<Outcome> {
  try {
    switch (operation.kind) {
      case "reset":
        return await reset(environment, body, ctx, trusted);
      case "step":
        return await step(environment, body, ctx, trusted);
      case "close":
        return await close(environment, ctx);
    }
  } catch (error) {
    return caught(error, environment.name, operation.kind, `${operation.kind}_error`);
  }
}

function isGymnasiumOperation(operation: SessionOperation): operation is GymnasiumOperation {
  return operation.kind === "reset" || operation.kind === "step" || operation.kind === "close";
}

/** Either kind of operation on either kind of environment; a mismatch is a clear 404, as an unknown route would be. */
export function performAny(environment: Environment, operation: SessionOperation, body: unknown, ctx: ToolContext<unknown>, trusted = false): Promise<Outcome> {
  if (environment.kind === "gymnasium") {
    if (isGymnasiumOperation(operation)) return performGymnasium(environment, operation, body, ctx, trusted);
    return Promise.resolve(failure(useResetStep(environment.name, operation.kind === "tool" ? operation.name : operation.kind)));
  }
  if (isGymnasiumOperation(operation)) {
    return Promise.resolve(
      failure(new EdgegymError(404, "not_gymnasium", `${environment.name} serves /seed_session, tools and /verify, not /${operation.kind}`)),
    );
  }
  return perform(environment, operation as Operation, body, ctx, trusted);
}
