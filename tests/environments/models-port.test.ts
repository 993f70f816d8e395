// The models port (environments/sdk/models.ts, contracts/context.ts): each role reaches its own proxy or the judge's,
// and a failed call is the judge's JudgeError for the judge and a ModelPortError for every other role.
import { describe, expect, it } from "vitest";
import type { ModelRpc } from "../../contracts/rpc.js";
import { toolContext } from "../../environments/sdk/context.js";
import { JudgeError } from "../../environments/sdk/judge.js";
import { ModelPortError, modelsThrough } from "../../environments/sdk/models.js";
import { noState } from "../../environments/sdk/perform.js";
import type { Response, ResponsesCreateParams } from "../../protocol/index.js";

const params = { input: "hello" } as ResponsesCreateParams;
const answering = (id: string, seen: string[]): ModelRpc => ({
  respond: async () => {
    seen.push(id);
    return { ok: true, value: { id } as Response };
  },
});
const failing: ModelRpc = { respond: async () => ({ ok: false, error: { status: 503, code: "overloaded", message: "busy" } }) };
const signal = () => new AbortController().signal;

describe("models by role", () => {
  it("a role with its own proxy reaches it; a role without one reaches the judge's", async () => {
    const seen: string[] = [];
    const models = modelsThrough({ judge: answering("judge", seen), user: answering("user", seen) }, signal);
    expect((await models("user", params)).id).toBe("user");
    expect((await models("tool_simulator", params)).id).toBe("judge");
    expect((await models("judge", params)).id).toBe("judge");
    expect(seen).toEqual(["user", "judge", "judge"]);
  });

  it("a failed judge call is a JudgeError; a failed user call a ModelPortError naming the role", async () => {
    const models = modelsThrough({ judge: failing }, signal);
    const judged = await models("judge", params).catch((e: unknown) => e);
    expect(judged).toBeInstanceOf(JudgeError);
    const user = await models("user", params).catch((e: unknown) => e);
    expect(user).toBeInstanceOf(ModelPortError);
    expect((user as Error).message).toBe("the user model: answered 503 overloaded: busy");
  });

  it("no proxy at all is a clear failure, not a hang", async () => {
    const user = await modelsThrough({}, signal)("simulator", params).catch((e: unknown) => e);
    expect((user as Error).message).toBe("the simulator model: this environment's Worker has no JUDGE binding to a model proxy");
  });
});

describe("the tool context", () => {
  it("carries judge and models over the same bindings, and sql only when given", async () => {
    const seen: string[] = [];
    const ctx = toolContext({ sessionId: "s1", state: noState, signal, models: { judge: answering("judge", seen) } });
    expect((await ctx.judge(params)).id).toBe("judge");
    expect((await ctx.models?.("user", params))?.id).toBe("judge");
    expect(ctx.sessionId).toBe("s1");
    expect("sql" in ctx).toBe(false);
    expect(ctx.sandbox).toBeUndefined();
  });
});
