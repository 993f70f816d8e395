// format_verification: NeMo Gym's recorded rollouts (workerd), its tests ported, and edge cases checked against CPython.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import formatVerification from "../../environments/format_verification/index.js";
import { pyFinditerWhole } from "../../environments/format_verification/python.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import { fixtureRollouts, fixtureRows, inputKey } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "format_verification";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

describe("NeMo Gym's recorded rollouts (workerd)", () => {
  const records = fixtureRollouts(NAME);
  it("has 5 records", () => expect(records).toHaveLength(5));
  it.each(records.map((record, i) => [i, record] as const))("record %i: same reward and match_details", async (_i, record) => {
    const row = fixtureRows(NAME).find((r) => inputKey(r) === inputKey(record));
    expect(row?.verifier).toEqual(record.verifier);
    const { reward: _r, match_details: _m, ...request } = record;
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, request);
    expect(answer.status).toBe(200);
    expect(answer.body.reward).toBe(record.reward);
    expect(answer.body.match_details).toEqual(record.match_details);
  });
});

const message = (text: string, id = "msg_1") => ({ id, type: "message", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] });
const response = (...output: unknown[]) => ({
  id: "resp_test",
  created_at: 0,
  model: "dummy",
  object: "response",
  output,
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
});
const request = (text: string, verifier: unknown) => ({
  responses_create_params: { input: [{ role: "user", content: "test" }] },
  response: response(message(text)),
  verifier,
});
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function verify(body: unknown): Promise<any> {
  const outcome = await perform(formatVerification, { kind: "verify" }, body, { sessionId: "t", state: noState, signal: new AbortController().signal });
  return outcome.status === 200 ? outcome.body : outcome;
}
const regex = (verify_regex: string[], verify_min_matches: unknown, type = "regex") => ({ type, verify_regex, verify_min_matches });
const SOURCES = "According to [source:1] and [source:2], the answer is clear.";
const stringMatch = (expected_markers: string[], patterns: string[]) => ({ type: "string_match", expected_markers, patterns });

describe("NeMo Gym's tests (resources_servers/format_verification/tests/test_app.py), ported", () => {
  it("TestVerifyRegex.test_lines_meeting_threshold", async () => {
    const r = await verify(request("1. First\n2. Second\n3. Third", regex(["^\\d+\\."], 2)));
    expect([r.reward, r.match_details.matching_lines, r.match_details.passed]).toEqual([1, 3, true]);
  });
  it("TestVerifyRegex.test_lines_below_threshold", async () => {
    const r = await verify(request("1. First\n2. Second", regex(["^\\d+\\."], 5)));
    expect([r.reward, r.match_details.matching_lines, r.match_details.passed]).toEqual([0, 2, false]);
  });
  it("TestVerifyRegex.test_no_patterns", async () => {
    const r = await verify(request("anything here", regex([], 1)));
    expect([r.reward, r.match_details.matching_lines]).toEqual([0, 0]);
  });
  it("TestVerifyRegex.test_multiple_patterns_line_counts_once", async () => {
    const r = await verify(request("1. First item", regex(["^\\d", "First"], 1)));
    expect([r.reward, r.match_details.matching_lines]).toEqual([1, 1]);
  });
  it("TestVerifyRegex.test_empty_text", async () => {
    const r = await verify(request("", regex(["hello"], 1)));
    expect([r.reward, r.match_details.matching_lines]).toEqual([0, 0]);
  });
  it("TestVerifyRegex.test_min_matches_zero", async () => {
    const r = await verify(request("no match here", regex(["xyz"], 0)));
    expect([r.reward, r.match_details.passed]).toEqual([1, true]);
  });
  it("TestVerifyRegex.test_inline_prose_type", async () => {
    expect((await verify(request("1. First line\n2. Second line", regex(["^\\d+\\."], 1, "inline_prose")))).reward).toBe(1);
  });
  it("TestVerifyStringMatch.test_all_present_no_spurious", async () => {
    const r = await verify(request(SOURCES, stringMatch(["[source:1]", "[source:2]"], ["\\[source:\\d+\\]"])));
    expect([r.reward, r.match_details.missing, r.match_details.spurious, r.match_details.passed]).toEqual([1, [], [], true]);
  });
  it("TestVerifyStringMatch.test_missing_marker", async () => {
    const r = await verify(request("According to [source:1], the answer is clear.", stringMatch(["[source:1]", "[source:2]"], [])));
    expect([r.reward, r.match_details.missing, r.match_details.passed]).toEqual([0, ["[source:2]"], false]);
  });
  it("TestVerifyStringMatch.test_spurious_marker", async () => {
    const r = await verify(request(SOURCES, stringMatch(["[source:1]"], ["\\[source:\\d+\\]"])));
    expect([r.reward, r.match_details.spurious, r.match_details.passed]).toEqual([0, ["[source:2]"], false]);
  });
  it("TestVerifyStringMatch.test_both_missing_and_spurious", async () => {
    const r = await verify(request(SOURCES, stringMatch(["[source:1]", "[source:3]"], ["\\[source:\\d+\\]"])));
    expect([r.reward, r.match_details.missing, r.match_details.spurious]).toEqual([0, ["[source:3]"], ["[source:2]"]]);
  });
  it("TestVerifyStringMatch.test_no_patterns_skips_spurious", async () => {
    const r = await verify(request(SOURCES, stringMatch(["[source:1]"], [])));
    expect([r.reward, r.match_details.spurious]).toEqual([1, []]);
  });
  it("TestVerifyStringMatch.test_empty_expected", async () => {
    const r = await verify(request("anything here", stringMatch([], [])));
    expect([r.reward, r.match_details.passed]).toEqual([1, true]);
  });
  it("TestVerifyRouting.test_unknown_type_raises", async () => {
    const outcome = await verify(request("text", { type: "unknown" }));
    expect(outcome.status).toBe(500);
    expect(outcome.body.error.message).toContain("unknown");
  });
  it("TestVerifyRouting.test_extract_multiple_messages", async () => {
    const body = { ...request("", regex(["^\\d+\\."], 2)), response: response(message("1. First\n"), message("2. Second\n", "msg_2")) };
    const r = await verify(body);
    expect([r.reward, r.match_details.matching_lines]).toEqual([1, 2]);
  });
  it("TestVerifyRouting.test_extract_skips_non_message", async () => {
    const call = { id: "fc_1", type: "function_call", call_id: "call_1", name: "some_fn", arguments: "{}" };
    const r = await verify({ ...request("", stringMatch(["Hello"], [])), response: response(call, message("Hello")) });
    expect(r.reward).toBe(1);
  });
});

describe("new cases (expected values from CPython 3.11)", () => {
  it("finditer's whole matches, empty ones included, with groups in the pattern", () => {
    // [m.group(0) for m in re.finditer(p, t)]
    expect(pyFinditerWhole("x*", "axx")).toEqual(["", "xx", ""]);
    expect(pyFinditerWhole("\\[(ref):(\\d)\\]", "[ref:1] [ref:2]")).toEqual(["[ref:1]", "[ref:2]"]);
    expect(pyFinditerWhole("(a)|b", "ab")).toEqual(["a", "b"]);
    expect(pyFinditerWhole("", "🎉")).toEqual(["", ""]);
  });
  it("a spurious empty match counts (a pattern matching empty text flags every position)", async () => {
    const r = await verify(request("ab", stringMatch([], ["x*"])));
    expect(r.match_details.spurious).toEqual(["", "", ""]);
    expect(r.reward).toBe(0);
  });
  it("an empty answer: no regex line matches; markers are missing", async () => {
    expect((await verify({ ...request("", regex(["^"], 1)), response: response() })).match_details).toEqual({
      matching_lines: 1,
      min_matches: 1,
      passed: true,
    });
    expect((await verify(request("", stringMatch(["[1]"], [])))).match_details.missing).toEqual(["[1]"]);
  });
  it("Python's \\s and \\d are Unicode: NBSP and Arabic-Indic digits count, a BOM does not", async () => {
    const r = await verify(request("1.\u00a0one\n٢. two\n3.\ufeffthree", regex(["^\\d+\\.\\s"], 3)));
    expect(r.match_details).toEqual({ matching_lines: 2, min_matches: 3, passed: false });
  });
  it("a pattern that is not valid Python fails the verify (re.error)", async () => {
    expect((await verify(request("x", regex(["("], 1)))).status).toBe(500);
  });
  it("a missing verifier, or one that is not an object, is a 4xx naming the field", async () => {
    for (const verifier of [undefined, "regex"]) {
      const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, request("x", verifier));
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(JSON.stringify(answer.body.error.issues)).toContain("verifier");
    }
  });
});
