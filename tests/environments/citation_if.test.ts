// citation_if: NeMo Gym's recorded rollouts (workerd), its scorer tests replayed from CPython's answers, and edge cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Local } from "../../local/emulation.js";
import citationIf, { responseShape } from "../../environments/citation_if/index.js";
import { scoreCitationIf } from "../../environments/citation_if/scorer.js";
import { GRAMMARS } from "../../environments/citation_if/grammars.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import type { Response as ModelResponse } from "../../protocol/index.js";
import { FIXTURES, fixtureRollouts, fixtureRows, inputKey } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "citation_if";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

const verifyUrl = () => `${local.url}/v1/environments/${NAME}/verify`;

describe("NeMo Gym's recorded rollouts (workerd)", () => {
  const records = fixtureRollouts(NAME);
  it("has 5 records: three pass, two fail the malformed-attempt gate", () => {
    expect(records.map((r) => r.reward)).toEqual([0, 1, 1, 0, 1]);
  });
  it.each(records.map((record, i) => [i, record] as const))("record %i: same reward and match_details", async (_i, record) => {
    const row = fixtureRows(NAME).find((r) => inputKey(r) === inputKey(record));
    expect(row?.verifier).toEqual(record.verifier);
    const { reward: _r, match_details: _m, ...request } = record;
    const answer = await postJson(verifyUrl(), request);
    expect(answer.status).toBe(200);
    expect(answer.body.reward).toBe(record.reward);
    expect(answer.body.match_details).toEqual(record.match_details);
    expect(answer.body.verifier).toEqual(record.verifier);
  });
});

interface Case {
  test: string;
  text: string;
  function_call_count: number;
  verifier: Record<string, unknown>;
  reward: number;
  details: Record<string, unknown>;
}
const cases = JSON.parse(readFileSync(path.join(FIXTURES, "..", "citation_if", "cpython-scorer-cases.json"), "utf8")) as Case[];

describe("NeMo Gym's scorer tests (test_citation_if.py, test_reward_hack_matrix.py, test_residual_fuzz.py), replayed", () => {
  it("covers every test file", () => {
    const files = new Set(cases.map((c) => c.test.split("::")[0]));
    expect([...files].sort()).toEqual(["test_citation_if.py", "test_residual_fuzz.py", "test_reward_hack_matrix.py"]);
    expect(cases.length).toBeGreaterThan(500);
  });
  it.each(cases.map((c, i) => [`${i} ${c.test}`, c] as const))("%s", (_name, c) => {
    const [reward, details] = scoreCitationIf(c.text, c.function_call_count, c.verifier);
    expect([reward, details]).toEqual([c.reward, c.details]);
  });
});

const message = (...blocks: unknown[]) => ({ id: "m", type: "message", role: "assistant", status: "completed", content: blocks });
const text = (t: string, type = "output_text") => ({ type, text: t, annotations: [] });
const response = (...output: unknown[]) => ({ id: "r", object: "response", created_at: 0, model: "m", output }) as ModelResponse;
const VERIFIER = {
  type: "citation_if",
  mode: "cite",
  grammar: "cite_xml",
  id_kind: "full_source",
  id_regex: "citation_[0-9]+",
  valid_id_set: ["citation_0", "citation_1"],
  expected_ids: null,
};
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function verify(body: unknown): Promise<any> {
  const outcome = await perform(citationIf, { kind: "verify" }, body, { sessionId: "t", state: noState, signal: new AbortController().signal });
  return outcome.status === 200 ? outcome.body : outcome;
}
const row = (r: ModelResponse, verifier: Record<string, unknown> = VERIFIER) => ({
  responses_create_params: { input: [{ role: "user", content: "q" }] },
  response: r,
  verifier,
});

describe("NeMo Gym's tests (test_app.py), ported", () => {
  it("extract_response_shape: text parts joined by newlines, function calls counted, other roles and reasoning ignored", () => {
    expect(responseShape(response(message(text("Hello"))))).toEqual(["Hello", 0]);
    expect(responseShape(response({ type: "function_call", name: "f", arguments: "{}", call_id: "c" }))).toEqual(["", 1]);
    expect(responseShape(response(message(text("a")), { type: "function_call", name: "f", arguments: "{}", call_id: "c" }))).toEqual(["a", 1]);
    expect(responseShape(response({ ...message(text("user text")), role: "user" }, message(text(" b "), text(""), text("c", "text"))))).toEqual(["b \nc", 0]);
    expect(responseShape(response({ type: "reasoning", id: "r", summary: [{ type: "summary_text", text: "thinking" }] }))).toEqual(["", 0]);
    expect(responseShape(response())).toEqual(["", 0]);
  });
  it("verify: a compliant answer scores 1 and echoes the request; a missing citation, a tool call or no answer score 0", async () => {
    const ok = await verify(row(response(message(text("Paris is the capital <cite>citation_0</cite>.")))));
    expect(ok).toMatchObject({ reward: 1, verifier: VERIFIER, match_details: { gate_failed: null, cited_ids: ["citation_0"] } });
    expect((await verify(row(response(message(text("Paris.")))))).match_details.gate_failed).toBe("must_cite");
    expect((await verify(row(response(message(text("Paris <cite>citation_0</cite> <cite>citation_9</cite>")))))).match_details.gate_failed).toBe(
      "no_hallucination",
    );
    const tool = await verify(
      row(response(message(text("Paris <cite>citation_0</cite>")), { type: "function_call", name: "search", arguments: "{}", call_id: "c" })),
    );
    expect(tool.match_details).toMatchObject({ gate_failed: "structural", function_call_count: 1 });
    expect((await verify(row(response(message(text("<cite>citation_0</cite>")))))).match_details.gate_failed).toBe("no_answer");
  });
  it("verify: no_cite mode scores 1 only without any citation", async () => {
    const noCite = { ...VERIFIER, mode: "no_cite" };
    expect((await verify(row(response(message(text("I cannot find sources."))), noCite))).reward).toBe(1);
    expect((await verify(row(response(message(text("See <cite>citation_0</cite>"))), noCite))).reward).toBe(0);
  });
});

describe("new cases", () => {
  it("an empty answer fails the structural gate", async () => {
    expect((await verify(row(response(message(text(" \n\u3000")))))).match_details).toMatchObject({ gate_failed: "structural", structural_ok: false });
  });
  it("an unknown grammar scores 0 with NeMo Gym's two details", () => {
    expect(scoreCitationIf("x", 0, { grammar: "nope" })).toEqual([0, { gate_failed: "unknown_grammar", grammar: "nope" }]);
  });
  it("Python's IGNORECASE: a Kelvin sign K in an ID-shaped token is still a leaked attempt", () => {
    // CPython: re.search(r"citation_[A-Za-z0-9_:]+", "citation_\u212a", re.I) matches.
    expect(scoreCitationIf("Answer <cite>citation_0</cite> citation_\u212a", 0, VERIFIER)[1].gate_failed).toBe("malformed_attempt");
    expect(scoreCitationIf("Answer <cite>citation_0</cite> citation_", 0, VERIFIER)[1].gate_failed).toBe(null);
  });
  it("Unicode answers and a claim wrapped across lines (DOTALL) with an astral character score 1", () => {
    const claim = { ...VERIFIER, grammar: "claim_wrap_xml" };
    const [reward, details] = scoreCitationIf('<cite index="citation_1">日本 🎉\nis here</cite>', 0, claim);
    expect([reward, details.parsed_ids]).toEqual([1, ["citation_1"]]);
  });
  it("missed gold IDs are sorted by code point, as Python sorts str", () => {
    const [, details] = scoreCitationIf("A 【citation_0】", 0, {
      ...VERIFIER,
      grammar: "fullwidth_brackets",
      expected_ids: ["\u{1F600}", "\uFF5E", "citation_0"],
    });
    expect(details.missed_ids).toEqual(["\uFF5E", "\u{1F600}"]);
  });
  it("an id_regex that is not valid Python fails the verify (re.error)", async () => {
    const outcome = await verify(row(response(message(text("x"))), { ...VERIFIER, id_regex: "citation_(" }));
    expect(outcome.status).toBe(500);
  });
  it("bad input: a verifier that is not an object is a 4xx naming the field", async () => {
    const answer = await postJson(verifyUrl(), row(response(message(text("x"))), "cite" as unknown as Record<string, unknown>));
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(JSON.stringify(answer.body.error.issues)).toContain("verifier");
  });
  it("all eleven grammars are ported, two of them holdouts", () => {
    expect(Object.keys(GRAMMARS)).toHaveLength(11);
    expect(
      Object.entries(GRAMMARS)
        .filter(([, g]) => g.holdout)
        .map(([n]) => n),
    ).toEqual(["curly_double", "angle_pipe"]);
  });
});
