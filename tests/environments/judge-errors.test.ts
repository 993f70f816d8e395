// The judge's failures (environments/sdk/judge.ts): a JudgeError carries the status, the class and a short printable reason,
// never an upstream's raw text (it lands in failure records and log lines).
import { describe, expect, it } from "vitest";
import type { ModelRpc } from "../../contracts/rpc.js";
import { JudgeError, judgeThrough } from "../../environments/sdk/judge.js";
import type { ResponsesCreateParams } from "../../protocol/index.js";

const params = { input: "is 2+2=4?" } as ResponsesCreateParams;

async function judgeError(binding: ModelRpc): Promise<JudgeError> {
  const error = await judgeThrough(binding, new AbortController().signal)(params).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(JudgeError);
  return error as JudgeError;
}

describe("a failed judge call", () => {
  it("names the status and the class, and keeps the reason printable and short", async () => {
    const message = `the model (upstream #0) failed (HTTP 500): boom\u001b[2J\r\nforged line\u202e${"x".repeat(5_000)}`;
    const error = await judgeError({ respond: async () => ({ ok: false, error: { status: 502, code: "upstream_error\u0007", message } }) });
    expect(error.message.startsWith("the judge answered 502 upstream_error: the model (upstream #0) failed (HTTP 500): boom [2J forged line x")).toBe(true);
    expect(error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    expect(error.message.length).toBeLessThanOrEqual(360);
  });

  it("a transport failure's text too", async () => {
    const error = await judgeError({ respond: () => Promise.reject(new Error("socket closed\u001b[31m\nnext")) });
    expect(error.message).toBe("the judge call failed: socket closed [31m next");
  });
});
