// LiveCodeBench's extract_code for OpenAI-chat-style models: the text between the last two lines containing ``` fences.
export function extractCode(modelOutput: string): string {
  const lines = modelOutput.split("\n");
  const fences = lines.flatMap((line, index) => (line.includes("```") ? [index] : []));
  if (fences.length < 2) return "";
  return lines.slice(fences[fences.length - 2]! + 1, fences[fences.length - 1]).join("\n");
}

/** NeMo Gym's _has_reasoning_format_violation: think tags in the final answer, or more than one of each in the reasoning. */
export function hasReasoningFormatViolation(finalAnswer: string, reasoning: string): boolean {
  if (finalAnswer.includes("<think>") || finalAnswer.includes("</think>")) return true;
  const count = (tag: string) => reasoning.split(tag).length - 1;
  return count("<think>") > 1 || count("</think>") > 1;
}
