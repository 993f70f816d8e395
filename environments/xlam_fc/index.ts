// Port of NeMo Gym's xlam_fc: the model's function calls must match the expected calls one to one (name + arguments).
import { defineEnvironment, functionCalls, z } from "../sdk/index.js";
import { isDict, pyContains, pyEqual, PythonJsonError, pythonJsonLoads } from "./python-json.js";

type Call = { name: unknown; arguments: unknown };

const Task = z.object({
  expected_answers: z.array(z.record(z.string(), z.unknown())).default([]),
});

/** Arguments as NeMo Gym normalises them: a JSON string decoded (to whatever it holds), a dict kept, anything else {}. */
function normalizeArguments(args: unknown): unknown {
  if (typeof args === "string") {
    try {
      return pythonJsonLoads(args);
    } catch (error) {
      if (error instanceof PythonJsonError) return {};
      throw error;
    }
  }
  return isDict(args) ? args : {};
}

/** Python's dict.get(key, default) on a row's expected call. */
function get(call: Record<string, unknown>, key: string, fallback: unknown): unknown {
  return Object.hasOwn(call, key) ? call[key] : fallback;
}

/**
 * Same name, and every expected argument present with an equal value (extra predicted arguments are fine).
 * The predicted arguments are normalised a second time, as in NeMo Gym: a JSON string holding JSON decodes twice.
 */
function callsMatch(predicted: Call, expected: Record<string, unknown>): boolean {
  if (!pyEqual(predicted.name, get(expected, "name", null))) return false;
  const predictedArgs = normalizeArguments(predicted.arguments);
  const expectedArgs = normalizeArguments(get(expected, "arguments", {}));
  if (!isDict(expectedArgs)) throw new TypeError("expected arguments decode to a JSON value that is not an object ('.items()' fails in NeMo Gym)");
  for (const [key, value] of Object.entries(expectedArgs)) {
    if (!pyContains(predictedArgs, key)) return false;
    if (!isDict(predictedArgs)) throw new TypeError("predicted arguments are not an object and cannot be indexed by name");
    if (!pyEqual(predictedArgs[key], value)) return false;
  }
  return true;
}

/** Greedy one-to-one matching of expected calls to predicted ones; reward 1 only when all match and counts agree. */
function score(predicted: Call[], expected: Record<string, unknown>[]): { reward: number; correct: number } {
  if (expected.length === 0) return { reward: predicted.length === 0 ? 1.0 : 0.0, correct: 0 };
  const used = new Set<number>();
  let correct = 0;
  for (const call of expected) {
    const index = predicted.findIndex((candidate, i) => !used.has(i) && callsMatch(candidate, call));
    if (index !== -1) {
      used.add(index);
      correct++;
    }
  }
  const reward = correct === expected.length && expected.length === predicted.length ? 1.0 : 0.0;
  return { reward, correct };
}

export default defineEnvironment({
  name: "xlam_fc",
  description: "xLAM function calling: the response's function calls must match expected_answers one to one.",
  task: Task,
  // The row brings its own tool definitions; NeMo Gym's server executes none of them.
  tools: {},
  verify: (request) => {
    const predicted: Call[] = functionCalls(request.response).map((call) => ({ name: call.name, arguments: normalizeArguments(call.arguments) }));
    const { reward, correct } = score(predicted, request.expected_answers);
    return {
      reward,
      num_expected: request.expected_answers.length,
      num_predicted: predicted.length,
      num_correct: correct,
      predicted_calls: predicted,
    };
  },
});
