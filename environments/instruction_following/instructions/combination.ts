// combination:* — two different responses, and repeating the request before answering.
import { instruction, type InstructionSpec } from "./base.js";
import { PyError, lower, stripStr, strip, truthy } from "./util/python.js";

/** combination:two_responses — exactly two different non-empty responses separated by "******". */
export const twoResponses = instruction([], () => (response) => {
  const valid: string[] = [];
  const pieces = response.split("******");
  for (let i = 0; i < pieces.length; i++) {
    if (!strip(pieces[i]!)) {
      if (i !== 0 && i !== pieces.length - 1) return false;
    } else valid.push(pieces[i]!);
  }
  return valid.length === 2 && strip(valid[0]!) !== strip(valid[1]!);
});

/** A required prompt_to_repeat: a ValueError when missing or empty. */
export function promptToRepeat(value: unknown): unknown {
  if (!truthy(value)) throw new PyError("ValueError", "prompt_to_repeat must be set.");
  return value;
}

/** combination:repeat_prompt — the response starts with the prompt (case-insensitive, trimmed). */
export const repeatPrompt = instruction(["prompt_to_repeat"], ({ prompt_to_repeat }) => {
  const prompt = promptToRepeat(prompt_to_repeat);
  return (response) => lower(strip(response)).startsWith(lower(stripStr(prompt)));
});

export const COMBINATION: Record<string, InstructionSpec> = {
  "combination:two_responses": twoResponses,
  "combination:repeat_prompt": repeatPrompt,
};
