// punctuation:* — no commas, no periods, no exclamation marks anywhere.
import { instruction, type InstructionSpec } from "./base.js";

const without = (mark: string) => instruction([], () => (response) => !response.includes(mark));

export const PUNCTUATION: Record<string, InstructionSpec> = {
  "punctuation:no_comma": without(","),
  "punctuation:punctuation_dot": without("."),
  "punctuation:punctuation_exclamation": without("!"),
};
