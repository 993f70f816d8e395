// NeMo Gym's ActionComparator (common/verification_utils.py): expected vs actual action, reward and category.
import { PythonJsonDecodeError } from "../sdk/python/json.js";
import { pySplit, pyStrip } from "../sdk/python/text.js";
import { pyLower } from "../sdk/python/text-case.js";
import { intValue, isInstanceOfTypeOf, loadsPython, PyFloat, PyInt, type PyValue } from "./python.js";

export type MessageAction = { type: "message"; content: string };
export type FunctionCallAction = { type: "function_call"; name: string; arguments: string };
export type FunctionCallBatchAction = { type: "function_call_batch"; calls: FunctionCallAction[] };
export type Action = MessageAction | FunctionCallAction | FunctionCallBatchAction;

/** StepRewardCategory: the values are NeMo Gym's strings, returned as the verify response's `category`. */
export const Category = {
  NO_ACTION_FOUND: "No tool call or chat message was found in the response",
  NO_EXPECTED_TOOL_CALL: "No tool call was found when one was expected",
  EXPECTED_CHAT_MESSAGE_FOUND: "A chat message was found as expected",
  NO_EXPECTED_CHAT_MESSAGE: "A tool call was executed when a chat message was expected",
  UNEXPECTED_TOOL: "The tool in a tool call is not the expected tool",
  ARGUMENTS_DECODE_ERROR: "An error occurred when decoding the arguments string in a tool call as a JSON object",
  ARGUMENT_VALUE_TYPE_DIFFERENT: "The type of an argument value in a tool call is different than the expected type",
  ARGUMENT_OBJECT_KEYS_DIFFERENT: "The keys in an object in an argument value in a tool call are different than the keys in the expected object",
  ARGUMENT_LIST_LENGTH_DIFFERENT: "A list in an argument value in a tool call has a different length than the expected list",
  ARGUMENT_VALUE_DIFFERENT: "An argument value in a tool call is different than the expected value",
  EXPECTED_TOOL_CALL: "A tool call that matches the expected tool call was found",
  FUNCTION_CALL_BATCH_LENGTH_DIFFERENT: "The number of tool calls in a batch is different than expected",
  EXPECTED_TOOL_CALL_BATCH: "A tool-call batch that matches the expected tool calls was found",
} as const;
export type Category = (typeof Category)[keyof typeof Category];

export type RewardMode = "binary_strict" | "fractional" | "f1";

/** ToolCallComparatorConfig with NeMo Gym's defaults. */
export interface ComparatorConfig {
  word_count_similarity_threshold: number;
  floating_point_comparison_threshold: number;
  parallel_tool_call_rewarding: boolean;
  allow_subset: boolean;
  allow_superset: boolean;
  parallel_tool_call_reward_mode: RewardMode;
}

export type Result = { reward: number; category: Category };
type ArgumentsResult = [true, null] | [false, Category];

/** get_tool_calls: single and parallel calls on one path. */
export function toolCalls(action: Action): FunctionCallAction[] {
  if (action.type === "function_call_batch") return [...action.calls];
  return action.type === "function_call" ? [action] : [];
}

/** find_maximum_matching (Kuhn's algorithm): actual index → expected index, most constrained expected calls first. */
export function findMaximumMatching(candidates: number[][]): Map<number, number> {
  const matching = new Map<number, number>();
  const order = candidates.map((_, i) => i).sort((a, b) => candidates[a]!.length - candidates[b]!.length || a - b);
  for (const expected of order) augment(expected, candidates, matching, new Set());
  return matching;
}

function augment(expected: number, candidates: number[][], matching: Map<number, number>, visited: Set<number>): boolean {
  for (const actual of candidates[expected]!) {
    if (visited.has(actual)) continue;
    visited.add(actual);
    const holder = matching.get(actual);
    if (holder === undefined || augment(holder, candidates, matching, visited)) {
      matching.set(actual, expected);
      return true;
    }
  }
  return false;
}

/** Counter(text.strip().lower().split()). */
function wordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of pySplit(pyLower(pyStrip(text)))) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

export class ActionComparator {
  constructor(readonly config: ComparatorConfig) {}

  compareAction(expected: Action, actual: Action): Result {
    if (expected.type === "message") {
      // Currently, any chat message is assigned a reward of one.
      if (actual.type === "message") return { reward: 1.0, category: Category.EXPECTED_CHAT_MESSAGE_FOUND };
      return { reward: 0.0, category: Category.NO_EXPECTED_CHAT_MESSAGE };
    }
    if (actual.type === "message") return { reward: 0.0, category: Category.NO_EXPECTED_TOOL_CALL };
    return this.compareToolCalls(toolCalls(expected), toolCalls(actual));
  }

  compareToolCalls(expected: FunctionCallAction[], actual: FunctionCallAction[]): Result {
    if (expected.length === 1 && actual.length === 1) return this.compareToolCall(expected[0]!, actual[0]!);
    if (!this.isCallCountAdmissible(expected.length, actual.length)) {
      return { reward: 0.0, category: Category.FUNCTION_CALL_BATCH_LENGTH_DIFFERENT };
    }
    const { candidates, failures } = this.buildMatchCandidates(expected, actual);
    const matching = findMaximumMatching(candidates);
    const reward = this.scoreMatchedCalls(matching.size, expected.length, actual.length);
    if (reward === 1.0) {
      return { reward, category: expected.length === 1 ? Category.EXPECTED_TOOL_CALL : Category.EXPECTED_TOOL_CALL_BATCH };
    }
    const matched = new Set(matching.values());
    const unmatched = expected.map((_, i) => i).filter((i) => !matched.has(i));
    const category = unmatched.length === 0 || matched.size === actual.length ? Category.FUNCTION_CALL_BATCH_LENGTH_DIFFERENT : failures[unmatched[0]!]!;
    return { reward, category };
  }

  private isCallCountAdmissible(expectedCount: number, actualCount: number): boolean {
    if (actualCount === expectedCount || !this.config.parallel_tool_call_rewarding) return true;
    return actualCount < expectedCount ? this.config.allow_subset : this.config.allow_superset;
  }

  private scoreMatchedCalls(matched: number, expectedCount: number, actualCount: number): number {
    if (!this.config.parallel_tool_call_rewarding) return matched === expectedCount ? 1.0 : 0.0;
    if (this.config.parallel_tool_call_reward_mode === "f1") {
      const sum = expectedCount + actualCount;
      return sum ? (2 * matched) / sum : 0.0;
    }
    const required = this.config.allow_subset ? Math.min(expectedCount, actualCount) : expectedCount;
    if (this.config.parallel_tool_call_reward_mode === "fractional") return required ? matched / required : 0.0;
    return matched === required ? 1.0 : 0.0;
  }

  /** Each expected call's matching actual indices, and the first near-miss reason past the tool name for the rest. */
  private buildMatchCandidates(expected: FunctionCallAction[], actual: FunctionCallAction[]): { candidates: number[][]; failures: Category[] } {
    const candidates: number[][] = [];
    const failures: Category[] = [];
    for (const expectedCall of expected) {
      const indices: number[] = [];
      let failure: Category = Category.UNEXPECTED_TOOL;
      actual.forEach((actualCall, index) => {
        const result = this.compareToolCall(expectedCall, actualCall);
        if (result.reward === 1.0) indices.push(index);
        else if (failure === Category.UNEXPECTED_TOOL) failure = result.category;
      });
      candidates.push(indices);
      failures.push(failure);
    }
    return { candidates, failures };
  }

  compareToolCall(expected: FunctionCallAction, actual: FunctionCallAction): Result {
    if (expected.name !== actual.name) return { reward: 0.0, category: Category.UNEXPECTED_TOOL };
    // The expected arguments are assumed to be JSON; a row where they are not fails the request, as in NeMo Gym.
    const expectedArguments = loadsPython(expected.arguments);
    let actualArguments: PyValue;
    try {
      actualArguments = loadsPython(actual.arguments);
    } catch (error) {
      // Only JSONDecodeError is caught there; json.loads' ValueError (an int over 4300 digits) fails the request.
      if (error instanceof PythonJsonDecodeError) return { reward: 0.0, category: Category.ARGUMENTS_DECODE_ERROR };
      throw error;
    }
    const [match, category] = this.compareArguments(expectedArguments, actualArguments);
    return match ? { reward: 1.0, category: Category.EXPECTED_TOOL_CALL } : { reward: 0.0, category };
  }

  /** compare_tool_call_arguments: type first (bool passes as int), then recursively by kind. */
  compareArguments(expected: PyValue, actual: PyValue): ArgumentsResult {
    if (!isInstanceOfTypeOf(actual, expected)) return [false, Category.ARGUMENT_VALUE_TYPE_DIFFERENT];
    if (expected instanceof Map && actual instanceof Map) {
      const same = expected.size === actual.size && [...expected.keys()].every((key) => actual.has(key));
      if (!same) return [false, Category.ARGUMENT_OBJECT_KEYS_DIFFERENT];
      for (const [key, value] of expected) {
        const result = this.compareArguments(value, actual.get(key)!);
        if (!result[0]) return result;
      }
      return [true, null];
    }
    if (Array.isArray(expected) && Array.isArray(actual)) {
      if (expected.length !== actual.length) return [false, Category.ARGUMENT_LIST_LENGTH_DIFFERENT];
      for (const [i, value] of expected.entries()) {
        const result = this.compareArguments(value, actual[i]!);
        if (!result[0]) return result;
      }
      return [true, null];
    }
    if (expected instanceof PyFloat && actual instanceof PyFloat) {
      const close = Math.abs(actual.value - expected.value) < this.config.floating_point_comparison_threshold;
      return close ? [true, null] : [false, Category.ARGUMENT_VALUE_DIFFERENT];
    }
    if (typeof expected === "string" && typeof actual === "string") return this.compareStrings(expected, actual);
    if (expected instanceof PyInt && (actual instanceof PyInt || typeof actual === "boolean")) {
      return expected.value === intValue(actual) ? [true, null] : [false, Category.ARGUMENT_VALUE_DIFFERENT];
    }
    // None, and bool against bool (isinstance let nothing else through).
    return expected === actual ? [true, null] : [false, Category.ARGUMENT_VALUE_DIFFERENT];
  }

  /** Strings of one word or fewer must be equal; longer ones compare lower-cased word counts (multiset overlap). */
  private compareStrings(expected: string, actual: string): ArgumentsResult {
    const expectedCounts = wordCounts(expected);
    const actualCounts = wordCounts(actual);
    const expectedTotal = total(expectedCounts);
    const actualTotal = total(actualCounts);
    if (expectedTotal < 2 || actualTotal < 2) {
      return expected === actual ? [true, null] : [false, Category.ARGUMENT_VALUE_DIFFERENT];
    }
    let shared = 0;
    for (const [word, count] of expectedCounts) shared += Math.min(count, actualCounts.get(word) ?? 0);
    const similarity = shared / (expectedTotal + actualTotal);
    return similarity < this.config.word_count_similarity_threshold ? [false, Category.ARGUMENT_VALUE_DIFFERENT] : [true, null];
  }
}
