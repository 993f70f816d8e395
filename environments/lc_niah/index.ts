// Port of NeMo Gym's lc_niah: F1 of the final answer's node list, times one minus how much the reasoning copies the input.
import { allOutputText, defineEnvironment, z } from "../sdk/index.js";
import type { Item, Response } from "../../protocol/index.js";
import { PY_WHITESPACE, pyStrip } from "../sdk/python/text.js";
import { overlapLcs, overlapNgram, overlapSeqMatch } from "./overlap.js";
import { pySetOfJson, stringKey } from "../sdk/python/json-set.js";

export type OverlapMetricRule = "seq_match" | "ngram16" | "lcs";
export type OverlapGradingRule = "base" | "multiply" | "minus";

/** `_get_list`: the last non-empty line's `Final Answer: [...]`, items stripped of spaces and quotes. */
const FINAL_ANSWER = new RegExp(`Final Answer:[${PY_WHITESPACE}]*\\[([^\\n]*)\\]`, "u");
const QUOTES = "\"'";

export function getList(response: string): { nodes: string[]; parseFailed: boolean } {
  const lines = pyStrip(response)
    .split("\n")
    .filter((line) => pyStrip(line) !== "");
  const last = lines[lines.length - 1];
  const match = last === undefined ? null : FINAL_ANSWER.exec(last);
  if (!match) return { nodes: [], parseFailed: true };
  const content = match[1]!;
  if (!pyStrip(content)) return { nodes: [], parseFailed: false };
  const nodes = content
    .split(",")
    .map((raw) => pyStrip(pyStrip(pyStrip(raw), QUOTES)))
    .filter((item) => item);
  return { nodes, parseFailed: false };
}

/** `_grade_answer`: F1 between the predicted node set and `set(json.loads(expected_answer))`. */
export function gradeAnswer(response: string, answer: string): number {
  const { nodes, parseFailed } = getList(response);
  const predicted = new Set(nodes);
  const expected = pySetOfJson(answer);
  if (parseFailed) return 0.0;
  if (!expected.size && !predicted.size) return 1.0;
  if (!predicted.size || !expected.size) return 0.0;
  const tp = [...predicted].filter((node) => expected.has(stringKey(node))).length;
  const precision = tp / predicted.size;
  const recall = tp / expected.size;
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0.0;
}

/** `_extract_reasoning_text`: every reasoning item's summary texts, joined. */
export function reasoningText(response: Response): string {
  return response.output.flatMap((item) => (item.type === "reasoning" ? item.summary.map((part) => part.text) : [])).join("");
}

/** `_extract_input_text`: a string input as it is, else each item's string content or its blocks' texts, joined by "\n". */
export function inputText(input: string | Item[]): string {
  if (typeof input === "string") return input;
  const parts: string[] = [];
  for (const item of input) {
    const content = "content" in item ? item.content : undefined;
    if (typeof content === "string") parts.push(content);
    else if (Array.isArray(content)) for (const block of content) if (block.text) parts.push(block.text);
  }
  return parts.join("\n");
}

export function lcNiahEnvironment(metricRule: OverlapMetricRule = "lcs", gradingRule: OverlapGradingRule = "multiply") {
  return defineEnvironment({
    name: "lc_niah",
    description:
      "Long-context needle in a haystack (graph questions): F1 of the last line's 'Final Answer: [...]' against expected_answer, times (1 - the longest common substring of the reasoning and the input over the reasoning's length).",
    task: z.looseObject({ expected_answer: z.string() }),
    tools: {},
    verify: (request) => {
      const answerScore = gradeAnswer(allOutputText(request.response), request.expected_answer);
      const reasoning = reasoningText(request.response);
      const input = inputText(request.responses_create_params.input);
      const overlap = {
        overlap_seq_match: overlapSeqMatch(reasoning, input),
        overlap_ngram16: overlapNgram(reasoning, input, 16),
        overlap_lcs: overlapLcs(reasoning, input),
      };
      const signals = { seq_match: overlap.overlap_seq_match, ngram16: overlap.overlap_ngram16, lcs: overlap.overlap_lcs };
      const reasoningOverlap = Object.hasOwn(signals, metricRule) ? signals[metricRule] : undefined;
      if (reasoningOverlap === undefined) throw new Error(`Invalid overlap metric rule: ${metricRule}`);
      const rewards = { base: answerScore, multiply: answerScore * (1.0 - reasoningOverlap), minus: answerScore - reasoningOverlap };
      const reward = Object.hasOwn(rewards, gradingRule) ? rewards[gradingRule] : undefined;
      if (reward === undefined) throw new Error(`Invalid overlap grading rule: ${gradingRule}`);
      return { reward, answer_score: answerScore, reasoning_overlap: reasoningOverlap, ...overlap };
    },
  });
}

/** NeMo Gym's config: overlap_metric_rule lcs, overlap_grading_rule multiply. */
export default lcNiahEnvironment();
