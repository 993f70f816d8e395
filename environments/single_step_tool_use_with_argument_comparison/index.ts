// Port of NeMo Gym's single_step_tool_use_with_argument_comparison: the response's next action against the expected one.
import type { Response } from "../../protocol/index.js";
import { defineEnvironment, type SimpleEnvironment, z } from "../sdk/index.js";
import { type Action, ActionComparator, Category, type ComparatorConfig, type FunctionCallAction } from "./compare.js";

const FunctionCall = z.object({ type: z.literal("function_call"), name: z.string(), arguments: z.string() });
const ExpectedAction = z.discriminatedUnion("type", [
  z.object({ type: z.literal("message"), content: z.string() }),
  FunctionCall,
  z.object({ type: z.literal("function_call_batch"), calls: z.array(FunctionCall).min(1) }),
]);

const Task = z.object({ expected_action: ExpectedAction });

/** NeMo Gym's ToolCallComparatorConfig defaults; `word_count_similarity_threshold` has none there. */
const DEFAULTS: Omit<ComparatorConfig, "word_count_similarity_threshold"> = {
  floating_point_comparison_threshold: 1e-6,
  parallel_tool_call_rewarding: false,
  allow_subset: false,
  allow_superset: false,
  parallel_tool_call_reward_mode: "binary_strict",
};

/**
 * extract_action: every function_call item (one → that call, several → a batch), else the first output_text of the
 * first assistant message that has one, else null. Tool calls win over text.
 */
export function extractAction(response: Response): Action | null {
  const calls: FunctionCallAction[] = [];
  let text: string | null = null;
  for (const item of response.output) {
    if (item.type === "function_call") calls.push({ type: "function_call", name: item.name, arguments: item.arguments });
    else if (item.type === "message" && item.role === "assistant" && text === null && Array.isArray(item.content)) {
      const part = item.content.find((p) => p.type === "output_text");
      if (part) text = part.text ?? "";
    }
  }
  if (calls.length === 1) return calls[0]!;
  if (calls.length > 0) return { type: "function_call_batch", calls };
  return text === null ? null : { type: "message", content: text };
}

/** The environment under one server config (NeMo Gym's `tool_call_comparator_config`); name it apart if it differs. */
export function singleStepToolUseEnvironment(
  config: Partial<ComparatorConfig> & Pick<ComparatorConfig, "word_count_similarity_threshold">,
  name = "single_step_tool_use_with_argument_comparison",
): SimpleEnvironment {
  const comparator = new ActionComparator({ ...DEFAULTS, ...config });
  return defineEnvironment({
    name,
    description: "One step of a tool-use trajectory: the response's tool call(s) or chat message against expected_action.",
    task: Task,
    // The row brings its own tool definitions; NeMo Gym's server executes none of them.
    tools: {},
    verify: (request) => {
      const actual = extractAction(request.response);
      if (actual === null) return { reward: 0.0, category: Category.NO_ACTION_FOUND };
      return comparator.compareAction(request.expected_action, actual);
    },
  });
}

/** NeMo Gym's configs/single_step_tool_use_with_argument_comparison.yaml. */
export default singleStepToolUseEnvironment({ word_count_similarity_threshold: 0.1 });
