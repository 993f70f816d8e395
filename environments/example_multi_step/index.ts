// Port of NeMo Gym's example_multi_step: look up synonym values, extract them in order; scored on the extracted list.
import { defineEnvironment, functionCalls, z } from "../sdk/index.js";

/** Python's json.loads(arguments)["synonym_values"], or [] when the model wrote something else. */
function extractedValues(argumentsJson: string): unknown[] {
  try {
    const parsed: unknown = JSON.parse(argumentsJson);
    if (parsed && typeof parsed === "object" && "synonym_values" in parsed && Array.isArray(parsed.synonym_values)) {
      return parsed.synonym_values;
    }
  } catch {
    // Malformed arguments extract nothing.
  }
  return [];
}

export default defineEnvironment({
  name: "example_multi_step",
  description: "Look up the value of each relevant synonym, then extract the values in the order listed.",
  task: z.object({
    expected_synonym_values: z.array(z.number().int()),
    expected_synonyms: z.array(z.string()).optional(),
    minefield_label: z.string(),
    minefield_label_value: z.number().int(),
  }),
  tools: {
    get_synonym_value: {
      description: "",
      parameters: z.object({ synonym: z.string() }),
      // The value is the sum of the code points of the synonym, as in NeMo Gym (Python's ord).
      execute: ({ synonym }) => ({ synonym_value: [...synonym].reduce((sum, ch) => sum + (ch.codePointAt(0) ?? 0), 0) }),
    },
    extract_synonym_values: {
      description: "",
      parameters: z.object({ synonym_values: z.array(z.number().int()) }),
      execute: () => ({ success: true }),
    },
  },
  verify: (request) => {
    const expected = request.expected_synonym_values;
    const last = functionCalls(request.response).findLast((call) => call.name === "extract_synonym_values");
    const actual = last ? extractedValues(last.arguments) : [];

    const accuracy = expected.length === actual.length && expected.every((value, i) => value === actual[i]);
    const expectedSet = new Set(expected);
    const overlap = new Set(actual.filter((value) => expectedSet.has(value as number))).size;
    // NeMo Gym divides by len(expected) and would raise on an empty list; an empty expectation overlaps fully here.
    const setOverlap = expected.length ? overlap / expected.length : 1;
    return {
      reward: accuracy ? 1.0 : 0.0,
      parsed_synonym_values: actual,
      accuracy,
      set_overlap: setOverlap,
      original_term_minefield_hit: actual.includes(request.minefield_label) || actual.includes(request.minefield_label_value),
      order_instruction_following_failure: !accuracy && setOverlap === 1.0,
    };
  },
});
