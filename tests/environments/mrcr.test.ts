// mrcr: parity with NeMo Gym's recorded rollouts (in workerd), difflib's ratio against CPython's, NeMo Gym's tests ported, edge cases.
import { spawn } from "node:child_process";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grade } from "../../environments/mrcr/index.js";
import { SequenceMatcher } from "../../environments/sdk/python/difflib.js";
import type { Local } from "../../local/emulation.js";
import { fixtureRollouts } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "mrcr";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

const VERIFIER_FIELDS = ["reward", "prefix_matched", "seq_match_ratio"];
const verify = (body: Record<string, unknown>) => postJson(`${local.url}/v1/environments/${NAME}/verify`, body);
const response = (text: string) => ({
  id: "resp_test",
  created_at: 0,
  model: "dummy",
  object: "response",
  output: [{ id: "msg", type: "message", role: "assistant", status: "completed", content: [{ annotations: [], text, type: "output_text" }] }],
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
});
const task = {
  responses_create_params: { input: [{ role: "user", content: "repeat" }] },
  expected_answer: "abc123zz-1 poem",
  random_string_to_prepend: "abc123",
  n_needles: 2,
  n_tokens: 100,
};

describe("parity with NeMo Gym's recorded rollouts (workerd)", () => {
  it.each(fixtureRollouts(NAME).map((record, i) => [i, record] as const))(
    "recorded rollout %i: same reward, prefix_matched, seq_match_ratio",
    async (_i, record) => {
      // These recordings carry a Chat Completions usage (prompt_tokens, completion_tokens): accepted as NeMo Gym does.
      const request = Object.fromEntries(Object.entries(record).filter(([key]) => !VERIFIER_FIELDS.includes(key)));
      const answer = await verify(request);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      for (const key of VERIFIER_FIELDS) expect(answer.body[key], key).toBe(record[key]);
      expect(answer.body.expected_answer).toBe(record.expected_answer);
    },
  );
});

/** CPython's difflib on a batch of pairs: [ratio with autojunk, longest match size with autojunk off]. */
async function cpython(pairs: [string, string][]): Promise<[number, number][]> {
  const script =
    "import sys,json\nfrom difflib import SequenceMatcher as S\nfor a,b in json.load(sys.stdin):\n m=S(None,b=b,a=a,autojunk=False)\n print(json.dumps([S(None,a,b).ratio(), m.find_longest_match(0,len(a),0,len(b)).size]))";
  // Asynchronous, so the event loop keeps serving the test's keep-alive sockets meanwhile.
  const child = spawn("python3", ["-c", script]);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  child.stdin.end(JSON.stringify(pairs));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (code !== 0) throw new Error(stderr);
  return stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as [number, number]);
}

describe("SequenceMatcher is CPython's difflib", () => {
  it("gives CPython's ratio and longest match on generated pairs, long ones included (autojunk past 200 elements)", async () => {
    const alphabet = fc.constantFrom("a", "b", "c", " ", "\n", "é", "😀", "ab", "zz-1 ");
    const text = fc.array(alphabet, { minLength: 0, maxLength: 400, size: "max" }).map((parts) => parts.join(""));
    const pairs = fc.sample(fc.tuple(text, text), { numRuns: 300, seed: 26 });
    const ours = pairs.map(([a, b]) => {
      const matcher = new SequenceMatcher(a, b, false);
      return [new SequenceMatcher(a, b).ratio(), matcher.findLongestMatch(0, matcher.lengthA, 0, matcher.lengthB).size];
    });
    expect(pairs.some(([, b]) => [...b].length >= 200)).toBe(true);
    expect(ours).toEqual(await cpython(pairs));
  });

  it("counts code points, not UTF-16 units: an emoji is one element", () => {
    expect(new SequenceMatcher("😀", "😀x").ratio()).toBe((2 * 1) / 3);
  });
});

// NeMo Gym's resources_servers/mrcr/tests/test_app.py, case by case (metrics tests: the SDK's aggregate metrics).
describe("NeMo Gym's tests", () => {
  it("test_missing_prefix_returns_zero", () => {
    expect(grade("hello world", "xyz123hello world", "xyz123")).toBe(0.0);
  });
  it("test_exact_match_with_prefix_returns_one", () => {
    expect(grade("xyz123The quick brown fox", "xyz123The quick brown fox", "xyz123")).toBe(1.0);
  });
  it("test_partial_match_returns_intermediate_ratio", () => {
    const ratio = grade("xyz123The quick brown fox", "xyz123The quick black fox", "xyz123");
    expect(ratio).toBeGreaterThan(0);
    expect(ratio).toBeLessThan(1);
  });
  it("test_prefix_stripped_before_matching", () => {
    expect(grade("PFXhello", "PFXhello", "PFX")).toBe(1.0);
  });
  it("test_empty_response_no_prefix_returns_zero", () => {
    expect(grade("", "xyz123hello", "xyz123")).toBe(0.0);
  });
  it("test_prefix_only_response", () => {
    expect(grade("xyz123", "xyz123hello", "xyz123")).toBe(0.0);
  });
  it("test_reasoning_preamble_is_not_stripped_by_grade", () => {
    expect(grade("<think>Let me find the first song...</think>\n\nxyz123Song one lyrics", "xyz123Song one lyrics", "xyz123")).toBe(0.0);
  });

  it("verify strips the response and reports prefix_matched and seq_match_ratio", async () => {
    const answer = await verify({ ...task, response: response("  abc123zz-1 poem\n") });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ reward: 1.0, prefix_matched: true, seq_match_ratio: 1.0, n_needles: 2, n_tokens: 100 });
  });

  it("verify without the prefix: reward 0, prefix_matched false", async () => {
    const answer = await verify({ ...task, response: response("zz-1 poem") });
    expect(answer.body).toMatchObject({ reward: 0.0, prefix_matched: false, seq_match_ratio: 0.0 });
  });
});

describe("edge cases", () => {
  it("an empty answer with an empty prefix compares the empty string: ratio of '' to the answer", async () => {
    const answer = await verify({ ...task, random_string_to_prepend: "", expected_answer: "", response: response("") });
    expect(answer.body).toMatchObject({ reward: 1.0, prefix_matched: true });
  });

  it("unicode: a prefix and answer in other scripts", async () => {
    const answer = await verify({ ...task, random_string_to_prepend: "ключ", expected_answer: "ключ日本語", response: response("ключ日本語") });
    expect(answer.body.reward).toBe(1.0);
  });

  it("a task without random_string_to_prepend is refused with 400 and the zod issue's path", async () => {
    const { random_string_to_prepend: _omit, ...rest } = task;
    const answer = await verify({ ...rest, response: response("x") });
    expect(answer.status).toBe(400);
    expect(answer.body.error.issues).toEqual([{ path: ["random_string_to_prepend"], message: "Invalid input: expected string, received undefined" }]);
  });

  it("n_needles must be an integer", async () => {
    const answer = await verify({ ...task, n_needles: 2.5, response: response("x") });
    expect(answer.status).toBe(400);
    expect(answer.body.error.issues[0].path).toEqual(["n_needles"]);
  });
});
