// LLM-as-judge calls from an environment, through the judge's model proxy, with NeMo Gym's failure rule.
import { Response as ResponsesResponse, type ResponsesCreateParams } from "../../protocol/index.js";

/** A judge call failed (transport, timeout, auth, HTTP status): the rollout is `judge_failed`, not wrong. */
export class JudgeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JudgeError";
  }
}

/** Asks the judge model; an unparseable *answer* is the verifier's to score, a failed *call* throws JudgeError. */
export type Judge = (params: ResponsesCreateParams) => Promise<ResponsesResponse>;

const JUDGE_TIMEOUT_MS = 120_000;

export function judgeThrough(binding: Fetcher | undefined, signal: AbortSignal): Judge {
  return async (params) => {
    if (!binding) throw new JudgeError("this environment's Worker has no JUDGE binding to a model proxy");
    let answer: globalThis.Response;
    try {
      answer = await binding.fetch("http://judge/v1/responses", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(params),
        signal: AbortSignal.any([signal, AbortSignal.timeout(JUDGE_TIMEOUT_MS)]),
      });
    } catch (error) {
      throw new JudgeError(`the judge call failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    const text = await answer.text();
    if (!answer.ok) throw new JudgeError(`the judge answered ${answer.status}: ${text.slice(0, 500)}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new JudgeError(`the judge's answer is not JSON: ${text.slice(0, 200)}`);
    }
    const parsed = ResponsesResponse.safeParse(body);
    if (!parsed.success) throw new JudgeError(`the judge's answer is not a Response: ${parsed.error.message}`);
    return parsed.data;
  };
}
