// startend:* — a fixed closing phrase, and wrapping in double quotes.
import { instruction, type InstructionSpec } from "./base.js";
import { codePoints, lower, stripStr, strip } from "./util/python.js";
import { choice } from "./util/random.js";

/** startend:end_checker — ends with the phrase (case-insensitive; surrounding spaces and quotes ignored). */
export const endChecker = instruction(["end_phrase"], ({ end_phrase }) => {
  const phrase =
    typeof end_phrase === "string" ? strip(end_phrase) : (end_phrase ?? choice(["Any other questions?", "Is there anything else I can help with?"]));
  return (response) => lower(strip(strip(response), '"')).endsWith(lower(stripStr(phrase)));
});

/** startend:quotation — the trimmed response starts and ends with '"' (and is longer than one character). */
export const quotation = instruction([], () => (response) => {
  const value = codePoints(strip(response));
  return value.length > 1 && value[0] === '"' && value[value.length - 1] === '"';
});

export const STARTEND: Record<string, InstructionSpec> = {
  "startend:end_checker": endChecker,
  "startend:quotation": quotation,
};
