// NeMo Gym evalplus's extract_code_strict: the last ```python (else ```) fence's body, empty without a closing fence.
import { pyStrip } from "../sdk/python/index.js";

/** Skills' preprocess_code, last fence and strict mode; `<think>` is not stripped (NeMo Gym leaves that to vLLM). */
export function extractCodeStrict(completion: string, language = "python"): string {
  const text = completion.replaceAll("\r", "");
  const specificFence = `\`\`\`${language}`;
  const genericFence = "```";
  let start = text.lastIndexOf(specificFence);
  let fenceLength = specificFence.length;
  if (start === -1) {
    start = text.lastIndexOf(genericFence);
    fenceLength = genericFence.length;
  }
  if (start === -1) return "";
  const rest = text.slice(start + fenceLength);
  const end = rest.indexOf(genericFence);
  if (end === -1) return "";
  return pyStrip(rest.slice(0, end));
}
