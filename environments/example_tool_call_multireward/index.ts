// Port of NeMo Gym's example_tool_call_multireward: one expected get_weather call graded on three reward components.
import { defineEnvironment, functionCalls, z } from "../sdk/index.js";
import { isFunctionTool, type VerifyRequest } from "../../protocol/index.js";

type Arguments = Record<string, unknown>;

/** Arguments as an object and whether they were a valid JSON object. */
function parseArguments(raw: unknown): [Arguments, boolean] {
  if (raw && typeof raw === "object" && !Array.isArray(raw)) return [raw as Arguments, true];
  if (typeof raw !== "string") return [{}, false];
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === "object" && !Array.isArray(value) ? [value as Arguments, true] : [{}, false];
  } catch {
    // Arguments that are not JSON are not a valid object: that is what the reward components score.
    return [{}, false];
  }
}

function requiredParameters(request: VerifyRequest, toolName: string): string[] {
  const tool = (request.responses_create_params.tools ?? []).filter(isFunctionTool).find((t) => t.name === toolName);
  const required = tool?.parameters?.required;
  return Array.isArray(required) ? required.filter((key): key is string => typeof key === "string") : [];
}

/** Python's == on JSON values: deep equality, where 1 == 1.0. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => k in b && jsonEqual((a as Arguments)[k], (b as Arguments)[k]));
  }
  return false;
}

const ExpectedCall = z.looseObject({ name: z.string().optional(), arguments: z.record(z.string(), z.unknown()).nullish() });

export default defineEnvironment({
  name: "example_tool_call_multireward",
  description: "One expected get_weather call, graded on correctness, schema validity and format (reward = their sum).",
  task: z.object({ expected_call: ExpectedCall.default({}) }),
  tools: {
    get_weather: {
      description: "Get the current weather for a city.",
      parameters: z.object({ city: z.string().describe("The city to get the weather for.") }),
      execute: ({ city }) => ({ city, weather_description: `The weather in ${city} is sunny.` }),
    },
  },
  verify: (request) => {
    const predicted = functionCalls(request.response).map((call) => ({ name: call.name, arguments: call.arguments }));
    const hasText = request.response.output.some((item) => item.type === "message");
    const expected = request.expected_call;

    const format = predicted.length === 1 && !hasText ? 1.0 : 0.0;

    let schemaValid = 0.0;
    const first = predicted[0];
    if (first) {
      const [parsed, valid] = parseArguments(first.arguments);
      schemaValid = valid && requiredParameters(request, first.name).every((key) => key in parsed) ? 1.0 : 0.0;
    }

    const matches = (call: { name: string; arguments: string }) => {
      if (Object.keys(expected).length === 0 || call.name !== expected.name) return false;
      const [args] = parseArguments(call.arguments);
      return Object.entries(expected.arguments ?? {}).every(([key, value]) => jsonEqual(args[key], value));
    };
    const correctness = predicted.some(matches) ? 1.0 : 0.0;

    const reward_components = { correctness, schema_valid: schemaValid, format };
    return {
      reward: correctness + schemaValid + format,
      reward_components,
      correctness,
      schema_valid: schemaValid,
      format,
      predicted_calls: predicted.map((call) => ({ name: call.name, arguments: parseArguments(call.arguments)[0] })),
    };
  },
});
