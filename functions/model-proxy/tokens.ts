// Token ids and logprobs for on-policy training: read from vLLM's answer, checked, carried on items and messages.
import { EdgegymError } from "../../protocol/index.js";
import { isRecord, type UpstreamChoice, type UpstreamCompletion } from "./wire.js";

/** NeMo Gym's training fields, all or none, on the last output item of each model call and on the messages sent back. */
export interface TokenBundle {
  prompt_token_ids: number[];
  generation_token_ids: number[];
  generation_log_probs: number[];
  /** MoE routing data some trainers add; carried untouched. */
  routed_experts?: unknown;
}

export const TOKEN_FIELDS = ["prompt_token_ids", "generation_token_ids", "generation_log_probs"] as const;

/** Token information that cannot be trusted: partial, mismatched, or in conflict with another source. */
export class TokenInfoError extends EdgegymError {
  constructor(status: 400 | 502, message: string) {
    super(status, status === 400 ? "invalid_token_info" : "upstream_token_info", message);
    this.name = "TokenInfoError";
  }
}

// Containers are checked, not every element: a bundle can hold tens of thousands of ids (NeMo Gym does the same).
function list(value: unknown, where: string, status: 400 | 502): number[] {
  if (!Array.isArray(value)) throw new TokenInfoError(status, `${where} must be a list of numbers`);
  return value as number[];
}

/**
 * The bundle on an item or message, or null when it has none. Partial bundles and length mismatches are errors:
 * a trainer must get every field or none.
 */
export function readBundle(value: Record<string, unknown>, where: string, status: 400 | 502 = 400): TokenBundle | null {
  const present = TOKEN_FIELDS.filter((field) => value[field] !== undefined && value[field] !== null);
  if (present.length === 0) return null;
  if (present.length < TOKEN_FIELDS.length) {
    const missing = TOKEN_FIELDS.filter((field) => !present.includes(field));
    throw new TokenInfoError(status, `${where} has partial token information; missing: ${missing.join(", ")}`);
  }
  const bundle: TokenBundle = {
    prompt_token_ids: list(value.prompt_token_ids, `${where}.prompt_token_ids`, status),
    generation_token_ids: list(value.generation_token_ids, `${where}.generation_token_ids`, status),
    generation_log_probs: list(value.generation_log_probs, `${where}.generation_log_probs`, status),
  };
  if (bundle.generation_token_ids.length !== bundle.generation_log_probs.length) {
    throw new TokenInfoError(
      status,
      `${where} has ${bundle.generation_token_ids.length} generation token ids but ${bundle.generation_log_probs.length} log probabilities`,
    );
  }
  if (value.routed_experts !== undefined && value.routed_experts !== null) bundle.routed_experts = value.routed_experts;
  return bundle;
}

export function sameIds(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** vLLM's `return_token_ids` answer: top-level `prompt_token_ids` and the choice's `token_ids`, both or neither. */
export function responseTokenIds(completion: UpstreamCompletion, choice: UpstreamChoice): { prompt: number[]; generation: number[] } | null {
  const prompt = completion.prompt_token_ids ?? null;
  const generation = choice.token_ids ?? null;
  if ((prompt === null) !== (generation === null)) {
    throw new TokenInfoError(502, `the model returned partial token ids; missing: ${prompt === null ? "prompt_token_ids" : "choices[0].token_ids"}`);
  }
  if (prompt === null) return null;
  return { prompt: list(prompt, "prompt_token_ids", 502), generation: list(generation, "choices[0].token_ids", 502) };
}

const TOKEN_ID = "token_id:";

/** Generation ids and logprobs from `logprobs.content`, whose tokens vLLM writes as `token_id:<n>` when asked to. */
export function logprobTokens(choice: UpstreamChoice): { ids: number[]; logprobs: number[] } {
  const block = choice.logprobs;
  const content = isRecord(block) ? block.content : undefined;
  if (!Array.isArray(content)) {
    throw new TokenInfoError(
      502,
      "token ids were requested (logprobs: true, top_logprobs: 0, return_tokens_as_token_ids: true) but the model's answer has no choices[0].logprobs.content",
    );
  }
  const ids = new Array<number>(content.length);
  const logprobs = new Array<number>(content.length);
  for (let i = 0; i < content.length; i++) {
    const entry: unknown = content[i];
    const token = isRecord(entry) ? entry.token : undefined;
    const id = typeof token === "string" && token.startsWith(TOKEN_ID) ? Number(token.slice(TOKEN_ID.length)) : NaN;
    if (!Number.isInteger(id)) {
      throw new TokenInfoError(502, `choices[0].logprobs.content[${i}].token is not in the token_id:<n> form (is return_tokens_as_token_ids supported?)`);
    }
    const logprob = isRecord(entry) ? entry.logprob : undefined;
    if (typeof logprob !== "number") throw new TokenInfoError(502, `choices[0].logprobs.content[${i}].logprob is not a number`);
    ids[i] = id;
    logprobs[i] = logprob;
  }
  return { ids, logprobs };
}

/** Copies a bundle's fields onto an object (an output item or a chat message). */
export function withBundle<T extends object>(target: T, bundle: TokenBundle): T & TokenBundle {
  return Object.assign(target, bundle);
}
