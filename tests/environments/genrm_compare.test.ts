// genrm_compare: NeMo Gym's single-rollout verify in workerd, its tests/test_utils.py cases ported, and edge cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  aggregateScores,
  extractFromResponseObj,
  extractOutputText,
  GenRMOutputParseError,
  generateComparisonPairs,
  genrmCompareEnvironment,
  parseGenrmOutput,
} from "../../environments/genrm_compare/index.js";
import type { Local } from "../../local/emulation.js";
import { fixtureRows } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "genrm_compare";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

const response = (text: string) => ({
  id: "resp_test",
  created_at: 0,
  model: "dummy",
  object: "response",
  output: [{ id: "msg_test", type: "message", role: "assistant", status: "completed", content: [{ annotations: [], text, type: "output_text" }] }],
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
});
const verify = (body: Record<string, unknown>) => postJson(`${local.url}/v1/environments/${NAME}/verify`, body);

describe("verify in workerd (NeMo Gym's config: num_rollouts_per_prompt 1 → default_score)", () => {
  // NeMo Gym's example_rollouts.jsonl for genrm_compare is a copy of its rows (no response, no reward): not copied.
  it.each(fixtureRows(NAME).map((row, i) => [i, row] as const))("example row %i verifies to 3.0", async (_i, row) => {
    const answer = await verify({ ...row, response: response("An answer.") });
    expect(answer.status).toBe(200);
    expect(answer.body.reward).toBe(3.0);
  });

  it("an empty answer, a unicode answer and a principle/prompt_id all verify to 3.0", async () => {
    const row = fixtureRows(NAME)[1]!;
    for (const extra of [
      { response: response("") },
      { response: response("Ünïcödé 🤖 İı") },
      { response: response("x"), principle: "Be brief", prompt_id: "p1" },
    ]) {
      const answer = await verify({ ...row, ...extra });
      expect(answer.status).toBe(200);
      expect(answer.body.reward).toBe(3.0);
    }
  });

  it("a principle that is not a string is refused (400, as every environment's bad task fields) naming it", async () => {
    const answer = await verify({ ...fixtureRows(NAME)[1]!, response: response("x"), principle: 7 });
    expect(answer.status).toBe(400);
    expect(answer.body.error.issues[0].path).toEqual(["principle"]);
  });

  it("cohort mode (num_rollouts_per_prompt > 1) is refused at definition, not silently scored", () => {
    expect(() => genrmCompareEnvironment({ num_rollouts_per_prompt: 4 })).toThrow("cohort-based verify) is not ported");
    expect(() => genrmCompareEnvironment({ default_score: 2.5 })).not.toThrow();
  });
});

const options = {
  aggregatorMethod: "simple_tiebreaker",
  defaultScore: 3.0,
  reasoningBonus: 0,
  answerBonus: 0,
  topPercentile: 0.2,
  groupReasoningLengthPenaltyCoeff: 0,
  groupAnswerLengthPenaltyCoeff: 0,
};
const empty = (n: number) => Array.from({ length: n }, () => ({ output: [] }));

describe("NeMo Gym's tests/test_utils.py", () => {
  it("generate_comparison_pairs: circular and all_pairs, errors", () => {
    expect(generateComparisonPairs("circular", 3)).toEqual([
      [0, 1],
      [1, 2],
      [2, 0],
    ]);
    expect(generateComparisonPairs("circular", 4)).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 0],
    ]);
    expect(generateComparisonPairs("all_pairs", 3)).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
    ]);
    expect(generateComparisonPairs("all_pairs", 4)).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 2],
      [1, 3],
      [2, 3],
    ]);
    expect(() => generateComparisonPairs("unknown", 3)).toThrow("Unknown comparison strategy");
    expect(() => generateComparisonPairs("circular", 1)).toThrow("Need at least 2 responses");
  });

  it("parse_genrm_output: fenced, unfenced, partial, none, invalid, raise_on_fail", () => {
    expect(parseGenrmOutput('Here\'s my evaluation:\n```json\n{"score_1": 4, "score_2": 3, "ranking": 2}\n```\n', 3.0, 3.5)).toEqual([4, 3, 2]);
    expect(parseGenrmOutput('The result is {"score_1": 5, "score_2": 2, "ranking": 1}', 3.0, 3.5)).toEqual([5, 2, 1]);
    expect(parseGenrmOutput('{"score_1": 4}', 3.0, 3.5)).toEqual([4, 3, 3.5]);
    expect(parseGenrmOutput("I think response 1 is better", 2.5, 4.0)).toEqual([2.5, 2.5, 4.0]);
    expect(parseGenrmOutput('{"score_1": "not a number"}', 3.0, 3.5)).toEqual([3, 3, 3.5]);
    expect(() => parseGenrmOutput("No JSON here", 3.0, 3.5, true)).toThrow(GenRMOutputParseError);
  });

  it("extract_from_response_obj / extract_output_text", () => {
    expect(extractOutputText({ output: [{ type: "message", content: [{ type: "output_text", text: "Hello world" }] }] })).toBe("Hello world");
    const obj = {
      output: [
        {
          type: "reasoning",
          summary: [
            { text: "Let me think... ", type: "summary_text" },
            { text: "The answer is clear.", type: "summary_text" },
          ],
        },
        { type: "message", content: [{ type: "output_text", text: "Paris" }] },
      ],
    };
    expect(extractFromResponseObj(obj)).toEqual(["Let me think... The answer is clear.", "Paris"]);
    expect(extractOutputText({ output: [] })).toBe("None");
  });

  it("aggregate_scores: no ties, tiebreaker, circular integration", () => {
    expect(aggregateScores([[4, 2, 1]], [[0, 1, 0]], empty(2), options).rewards).toEqual([4, 2]);
    const tie = aggregateScores([[3, 3, 2]], [[0, 1, 0]], empty(2), options);
    expect(tie.rewards).toEqual([4.5, 1.5]);
    expect(tie.metrics.tiebreak_usage_rate).toBe(1.0);
    const circular = aggregateScores(
      [
        [4, 2, 1],
        [3, 5, 5],
        [3, 4, 4],
      ],
      [
        [0, 1, 0],
        [1, 2, 0],
        [2, 0, 0],
      ],
      empty(3),
      options,
    );
    expect(circular.rewards).toEqual([4, 2.5, 4]);
  });
});

describe("edge cases of our own", () => {
  it("parse: the first valid fenced block wins over later objects; otherwise the last valid object", () => {
    expect(parseGenrmOutput('```JSON\n{"score_1": 1}\n``` then {"score_1": 5, "score_2": 5}', 3, 3.5)).toEqual([1, 3, 3.5]);
    expect(parseGenrmOutput('{"score_1": 1} and {"score_2": 2} and {"other": 1}', 3, 3.5)).toEqual([3, 2, 3.5]);
  });

  it("parse: Python's \\s around a fence (ideographic space), braces inside strings, nested overall, bool and null values", () => {
    expect(parseGenrmOutput('```json\u3000{"note": "a } b", "score_1": 2, "score_2": 4, "ranking": 5}\u3000```', 3, 3.5)).toEqual([2, 4, 5]);
    expect(parseGenrmOutput('{"rubric_evaluations": [], "overall": {"score_1": 4, "score_2": 1, "ranking": 1}}', 3, 3.5)).toEqual([4, 1, 1]);
    expect(parseGenrmOutput('{"score_1": true, "score_2": "2.5", "ranking": 6}', 3, 3.5)).toEqual([1, 2.5, 6]);
    // float(None) is a TypeError: the object is skipped, no other → defaults.
    expect(parseGenrmOutput('{"score_1": null}', 3, 3.5)).toEqual([3, 3, 3.5]);
  });

  it("parse: an int too large for a float (OverflowError) fails the whole parse, as in Python", () => {
    const huge = `{"score_1": 1${"0".repeat(400)}}`;
    expect(parseGenrmOutput(`{"score_1": 2} ${huge}`, 3, 3.5)).toEqual([3, 3, 3.5]);
    expect(() => parseGenrmOutput(huge, 3, 3.5, true)).toThrow("Error parsing GenRM output");
  });

  it("extract_output_text: whitespace-only (Python's whitespace, e.g. U+2003) is the placeholder", () => {
    expect(extractOutputText({ output: [{ type: "message", content: [{ type: "output_text", text: " \u2003\n" }] }] })).toBe("None");
    expect(extractOutputText("not a dict")).toBe("None");
  });

  it("aggregate: length bonuses go to the shortest answer among the top scorers; metrics use population std", () => {
    const objs = [
      { output: [{ type: "message", content: [{ type: "output_text", text: "short" }] }] },
      { output: [{ type: "message", content: [{ type: "output_text", text: "a much longer answer" }] }] },
    ];
    const result = aggregateScores([[4, 4, 3.5]], [[0, 1, 0]], objs, { ...options, answerBonus: 0.5, topPercentile: 1.0 });
    expect(result.baseScores).toEqual([4, 4]);
    expect(result.rewards).toEqual([4.5, 4]);
    expect(result.bonuses).toEqual([0.5, 0]);
    expect(result.metrics.std_individual_score).toBe(0);
    expect(aggregateScores([[5, 1, 1]], [[0, 1, 0]], empty(2), options).metrics.std_individual_score).toBe(2);
    expect(() => aggregateScores([], [], empty(2), { ...options, aggregatorMethod: "x" })).toThrow("Unsupported aggregator_method");
  });
});
