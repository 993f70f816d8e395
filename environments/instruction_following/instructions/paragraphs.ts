// paragraphs:* — exactly two paragraphs, split by the "***" divider or by a blank line.
import { instruction, type InstructionSpec } from "./base.js";
import { dividerParagraphs, paragraphCount } from "./length-constraints.js";

export const PARAGRAPHS: Record<string, InstructionSpec> = {
  "paragraphs:paragraphs": instruction([], () => (response) => paragraphCount(dividerParagraphs(response)) === 2),
  "paragraphs:paragraphs2": instruction([], () => (response) => paragraphCount(response.split("\n\n")) === 2),
};
