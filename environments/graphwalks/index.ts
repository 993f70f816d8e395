// Port of NeMo Gym's graphwalks: F1 between the node list on the answer's last line ("Final Answer: [...]") and the expected nodes.
import { allOutputText, defineEnvironment, z } from "../sdk/index.js";
import { PY_WHITESPACE, pyStrip } from "../sdk/python/text.js";
import { pySetOfJson, stringKey } from "../sdk/python/json-set.js";

const Task = z.object({
  expected_answer: z.string(),
  problem_type: z.string(),
  n_tokens: z.number().int().nullish(),
  prompt_chars: z.number().int().nullish(),
});

/** `Final Answer:\s*\[(.*)\]`: Python's `\s` (str.isspace) and `.` (anything but "\n"; JavaScript's also stops at "\r"). */
const FINAL_ANSWER = new RegExp(`Final Answer:[${PY_WHITESPACE}]*\\[([^\\n]*)\\]`, "u");

/** `_parse_node_list`: the nodes on the last non-empty line, and whether "Final Answer: [...]" was missing. */
export function parseNodeList(response: string): { nodes: string[]; parseFailed: boolean } {
  const lines = pyStrip(response)
    .split("\n")
    .filter((line) => pyStrip(line) !== "");
  const last = lines[lines.length - 1];
  const match = last === undefined ? null : FINAL_ANSWER.exec(last);
  if (!match) return { nodes: [], parseFailed: true };
  const content = match[1]!;
  if (!pyStrip(content)) return { nodes: [], parseFailed: false };
  return {
    nodes: content
      .split(",")
      .filter((item) => pyStrip(item))
      .map((item) => pyStrip(item)),
    parseFailed: false,
  };
}

/** `_f1_score` over the predicted nodes (strings) and the expected set's element keys. */
export function f1Score(predicted: Set<string>, expected: Set<string>, parseFailed: boolean): number {
  if (parseFailed) return 0.0;
  if (!expected.size && !predicted.size) return 1.0;
  if (!predicted.size || !expected.size) return 0.0;
  const tp = [...predicted].filter((node) => expected.has(stringKey(node))).length;
  if (tp === 0) return 0.0;
  const precision = tp / predicted.size;
  const recall = tp / expected.size;
  return (2 * precision * recall) / (precision + recall);
}

export default defineEnvironment({
  name: "graphwalks",
  description:
    "OpenAI GraphWalks (parents / BFS at a depth over a graph in the prompt): F1 between the nodes in the last line's 'Final Answer: [...]' and expected_answer (a JSON list); 0 when that line is missing.",
  task: Task,
  tools: {},
  verify: (request) => {
    const { nodes, parseFailed } = parseNodeList(allOutputText(request.response));
    const f1 = f1Score(new Set(nodes), pySetOfJson(request.expected_answer), parseFailed);
    return { reward: f1, f1, parse_failed: parseFailed, predicted_nodes: nodes };
  },
});
