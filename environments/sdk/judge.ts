// LLM-as-judge calls from an environment, through the judge's model proxy (RPC), with NeMo Gym's failure rule.
import { type ModelRpc, within } from "../../contracts/rpc.js";
import { printable } from "../../http/outbound/reason.js";
import type { Response as ModelResponse, ResponsesCreateParams } from "../../protocol/index.js";

/** A judge call failed (transport, timeout, auth, HTTP status): the rollout is `judge_failed`, not wrong. */
export class JudgeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JudgeError";
  }
}

/** Asks the judge model; an unparseable *answer* is the verifier's to score, a failed *call* throws JudgeError. */
export type Judge = (params: ResponsesCreateParams) => Promise<ModelResponse>;

const JUDGE_TIMEOUT_MS = 120_000;

export function judgeThrough(binding: ModelRpc | undefined, signal: AbortSignal | (() => AbortSignal)): Judge {
  return async (params) => {
    if (!binding) throw new JudgeError("this environment's Worker has no JUDGE binding to a model proxy");
    const deadline = AbortSignal.any([typeof signal === "function" ? signal() : signal, AbortSignal.timeout(JUDGE_TIMEOUT_MS)]);
    let result: Awaited<ReturnType<ModelRpc["respond"]>>;
    try {
      result = await within(binding.respond(params, { timeoutMs: JUDGE_TIMEOUT_MS }), deadline, "the judge");
    } catch (error) {
      throw new JudgeError(`the judge call failed: ${printable(error instanceof Error ? error.message : String(error))}`);
    }
    // The proxy's message is sanitized already; a record and a log line get it bounded and printable all the same.
    if (!result.ok) {
      const { status, code, message } = result.error;
      throw new JudgeError(`the judge answered ${status} ${printable(code, 40)}: ${printable(message, 300)}`);
    }
    return result.value;
  };
}
