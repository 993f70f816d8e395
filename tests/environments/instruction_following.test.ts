// instruction_following through the real runtime (workerd via Miniflare): parity with NeMo Gym's recorded
// rollouts, NeMo Gym's own tests (resources_servers/instruction_following/tests/test_app.py) ported, and the
// request contract (legacy top-level fields, required fields, grading modes, which output item is read).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { fixtureRollouts, fixtureRows, inputKey } from "../helpers/fixtures.js";
import { gatewayFetch, postJson, startTestLocal } from "../helpers/local.js";

const NAME = "instruction_following";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

// The verify answer is arbitrary JSON; the assertions say what matters.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function verify(body: unknown): Promise<{ status: number; body: any }> {
  return postJson(`${local.url}/v1/environments/${NAME}/verify`, body);
}

function response(text: string, id = 1) {
  return {
    id: `resp_test_${id}`,
    created_at: 0,
    model: "dummy",
    object: "response",
    output: [{ id: `msg_test_${id}`, content: [{ annotations: [], text, type: "output_text" }], role: "assistant", status: "completed", type: "message" }],
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
  };
}

/** NeMo Gym's _create_real_request: the verifier fields under verifier_metadata. */
function request(instructionIds: string[], prompt: string, kwargs: unknown[], text: string, requestId = 1, gradingMode = "binary") {
  return {
    id: requestId,
    responses_create_params: { input: [{ role: "user", content: prompt }] },
    response: response(text, requestId),
    verifier_metadata: { instruction_id_list: instructionIds, prompt, kwargs, grading_mode: gradingMode },
  };
}

async function expectVerdict(body: unknown, followAll: boolean, reward: number, followList: boolean[]) {
  const answer = await verify(body);
  expect(answer.status).toBe(200);
  expect(answer.body.follow_all_instructions).toBe(followAll);
  expect(answer.body.reward).toBe(reward);
  expect(answer.body.follow_instruction_list).toEqual(followList);
  return answer.body;
}

describe("parity with NeMo Gym's recorded rollouts", () => {
  const rows = fixtureRows(NAME);
  const records = fixtureRollouts(NAME);

  it("has the five recorded rollouts of the five example rows", () => {
    expect(records).toHaveLength(5);
    expect(rows).toHaveLength(5);
  });

  it.each(records.map((record, i) => [i, record] as const))("recorded rollout %i: same reward and verdicts as NeMo Gym", async (_i, record) => {
    // NeMo Gym's record keeps the task fields but not the row's id, which its request model requires.
    const row = rows.find((r) => inputKey(r) === inputKey(record));
    expect(row).toBeDefined();
    const { reward: _reward, follow_all_instructions: _all, follow_instruction_list: _list, ...body } = record;
    const answer = await verify({ id: row!.id, ...body });
    expect(answer.status).toBe(200);
    expect(answer.body.reward).toBe(record.reward);
    expect(answer.body.follow_all_instructions).toBe(record.follow_all_instructions);
    expect(answer.body.follow_instruction_list).toEqual(record.follow_instruction_list);
    for (const key of ["instruction_id_list", "prompt", "kwargs"]) expect(answer.body[key], key).toEqual(record[key]);
    // The legacy top-level fields were migrated into verifier_metadata, as NeMo Gym's current server does.
    expect(answer.body.verifier_metadata).toEqual({ instruction_id_list: record.instruction_id_list, prompt: record.prompt, kwargs: record.kwargs });
  });
});

describe("NeMo Gym's tests (test_app.py), ported", () => {
  it("test_sanity: the server starts and serves the environment", async () => {
    const health = await gatewayFetch(`${local.url}/v1/environments/${NAME}/health`);
    expect(health.status).toBe(200);
  });

  it("test_instruction_following_imports: the registry has title and number_words, each buildable and checkable", async () => {
    const { INSTRUCTIONS } = await import("../../environments/instruction_following/instructions/registry.js");
    for (const id of ["detectable_format:title", "length_constraints:number_words"]) {
      const spec = INSTRUCTIONS.get(id);
      expect(spec, id).toBeDefined();
      expect(typeof spec!.build).toBe("function");
      expect(typeof spec!.build(id === "detectable_format:title" ? {} : { num_words: 1, relation: "at least" })).toBe("function");
    }
  });

  it("test_title_positive", async () => {
    await expectVerdict(
      request(["detectable_format:title"], "Write the entire response with a title.", [{}], "<<My Title>>\n\nThis is the content of my response."),
      true,
      1.0,
      [true],
    );
  });

  it("test_title_negative", async () => {
    await expectVerdict(request(["detectable_format:title"], "Write the entire response with a title.", [{}], "This response has no title."), false, 0.0, [
      false,
    ]);
  });

  it("test_no_comma_positive", async () => {
    await expectVerdict(request(["punctuation:no_comma"], "The output should not contain any commas.", [{}], "Hello world without commas at all"), true, 1.0, [
      true,
    ]);
  });

  it("test_no_comma_negative", async () => {
    await expectVerdict(request(["punctuation:no_comma"], "The output should not contain any commas.", [{}], "Hello, world with commas"), false, 0.0, [false]);
  });

  it("test_word_count_positive", async () => {
    const body = request(
      ["length_constraints:number_words"],
      "The response must contain at least 6 words.",
      [{ num_words: 6, relation: "at least" }],
      "This response has exactly six words.",
      100,
    );
    await expectVerdict(body, true, 1.0, [true]);
  });

  it("test_word_count_negative", async () => {
    const body = request(
      ["length_constraints:number_words"],
      "The response must contain at least 10 words.",
      [{ num_words: 10, relation: "at least" }],
      "Too short.",
    );
    await expectVerdict(body, false, 0.0, [false]);
  });

  it("test_multiple_constraints_positive", async () => {
    const body = request(
      ["detectable_format:title", "punctuation:no_comma"],
      "Write a response with a title and no commas.",
      [{}, {}],
      "<<My Great Title>>\n\nThis is a response without any commas at all.",
      200,
    );
    await expectVerdict(body, true, 1.0, [true, true]);
  });

  it("test_multiple_constraints_negative", async () => {
    const body = request(
      ["detectable_format:title", "punctuation:no_comma"],
      "Write a response with a title and no commas.",
      [{}, {}],
      "<<My Great Title>>\n\nThis response has commas, which should fail.",
      201,
    );
    await expectVerdict(body, false, 0.0, [true, false]);
  });

  it("test_fractional_reward_half", async () => {
    const body = request(
      ["detectable_format:title", "punctuation:no_comma"],
      "Write a response with a title and no commas.",
      [{}, {}],
      "<<My Great Title>>\n\n with a comma here, okay.",
      300,
      "fraction",
    );
    await expectVerdict(body, false, 0.5, [true, false]);
  });

  it("test_missing_verifier_metadata_fields_raises: rejected before verifying", async () => {
    const answer = await verify({
      id: 1,
      responses_create_params: { input: [] },
      response: { ...response(""), output: [] },
      verifier_metadata: { prompt: "some prompt" },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain("verifier_metadata is missing required fields: ['instruction_id_list', 'kwargs']");
  });

  it("test_legacy_top_level_format: top-level fields migrate into verifier_metadata", async () => {
    const body = {
      id: 1,
      instruction_id_list: ["detectable_format:title"],
      prompt: "Write the entire response with a title.",
      kwargs: [{}],
      responses_create_params: { input: [{ role: "user", content: "prompt" }] },
      response: response("<<My Title>>\n\nThis is the content of my response."),
    };
    const answer = await expectVerdict(body, true, 1.0, [true]);
    expect(answer.verifier_metadata.instruction_id_list).toEqual(["detectable_format:title"]);
    expect(answer.verifier_metadata.kwargs).toEqual([{}]);
  });

  it("test_legacy_grading_mode_migrated", async () => {
    const body = {
      id: 1,
      instruction_id_list: ["detectable_format:title", "punctuation:no_comma"],
      prompt: "Write a response with a title and no commas.",
      kwargs: [{}, {}],
      grading_mode: "fraction",
      responses_create_params: { input: [{ role: "user", content: "prompt" }] },
      response: response("<<My Great Title>>\n\n with a comma here, okay."),
    };
    const answer = await expectVerdict(body, false, 0.5, [true, false]);
    expect(answer.verifier_metadata.grading_mode).toBe("fraction");
  });

  it("test_explicit_verifier_metadata_takes_precedence", async () => {
    const body = {
      id: 1,
      instruction_id_list: ["punctuation:no_comma"],
      prompt: "stale top-level prompt",
      kwargs: [{}],
      responses_create_params: { input: [{ role: "user", content: "prompt" }] },
      response: response("<<My Title>>\n\nThis is the content of my response."),
      verifier_metadata: { instruction_id_list: ["detectable_format:title"], prompt: "Write the entire response with a title.", kwargs: [{}] },
    };
    const answer = await expectVerdict(body, true, 1.0, [true]);
    expect(answer.verifier_metadata.instruction_id_list).toEqual(["detectable_format:title"]);
  });
});

describe("the request contract (new cases)", () => {
  const title = (text: string, extra: Record<string, unknown> = {}) => ({ ...request(["detectable_format:title"], "p", [{}], text), ...extra });

  it("binary grading of no instructions is 1 (all([]) is True); fraction grading of none is 0", async () => {
    await expectVerdict(request([], "p", [], "anything"), true, 1.0, []);
    await expectVerdict(request([], "p", [], "anything", 1, "fraction"), true, 0.0, []);
  });

  it("pairs instructions with kwargs like zip(): the shorter list decides", async () => {
    await expectVerdict(request(["detectable_format:title", "punctuation:no_comma"], "p", [{}], "<<T>>, x"), true, 1.0, [true]);
  });

  it("an unknown instruction id or a kwargs entry that is not a dict is not followed", async () => {
    await expectVerdict(request(["no_such:instruction", "detectable_format:title"], "p", [{}, ["x"]], "<<T>>"), false, 0.0, [false, false]);
  });

  it("an unknown grading mode fails the request, as NeMo Gym's ValueError does", async () => {
    const answer = await verify(request(["detectable_format:title"], "p", [{}], "<<T>>", 1, "mean"));
    expect(answer.status).toBe(500);
    expect(answer.body.error.message).toContain("Invalid grading_mode: mean");
  });

  it("kwargs that cannot be iterated fail the request (zip raises outside NeMo Gym's try)", async () => {
    const answer = await verify({ ...title("<<T>>"), verifier_metadata: { instruction_id_list: ["detectable_format:title"], prompt: "p", kwargs: null } });
    expect(answer.status).toBe(500);
  });

  it("the row's integer id is required, as NeMo Gym's request model requires it", async () => {
    const { id: _id, ...withoutId } = title("<<T>>");
    expect((await verify(withoutId)).status).toBe(400);
    expect((await verify({ ...withoutId, id: "7" })).status).toBe(200);
    expect((await verify({ ...withoutId, id: 1.5 })).status).toBe(400);
  });

  it("reads content[0].text of the last output item only", async () => {
    const base = title("");
    const earlier = { type: "message", role: "assistant", content: [{ type: "output_text", text: "<<Earlier title>>" }] };
    const last = {
      type: "message",
      role: "assistant",
      content: [
        { type: "output_text", text: "no title" },
        { type: "output_text", text: "<<Second part>>" },
      ],
    };
    await expectVerdict({ ...base, response: { ...base.response, output: [earlier, last] } }, false, 0.0, [false]);
  });

  it("an empty output, or a last item without content (a tool call), verifies the empty string", async () => {
    const base = request(["punctuation:no_comma", "detectable_format:title"], "p", [{}, {}], "");
    const call = { type: "function_call", call_id: "c1", name: "f", arguments: "{}" };
    await expectVerdict({ ...base, response: { ...base.response, output: [] } }, false, 0.0, [true, false]);
    await expectVerdict({ ...base, response: { ...base.response, output: [call] } }, false, 0.0, [true, false]);
  });

  it("a last reasoning item with content is read like a message", async () => {
    const base = title("");
    const reasoning = { type: "reasoning", summary: [], content: [{ type: "reasoning_text", text: "<<Thinking title>>" }] };
    await expectVerdict({ ...base, response: { ...base.response, output: [reasoning] } }, true, 1.0, [true]);
  });

  it("a refusal as the first content part fails the request (it has no text, like NeMo Gym's AttributeError)", async () => {
    const base = title("");
    const refusal = { type: "message", role: "assistant", content: [{ type: "refusal", refusal: "I can't." }] };
    expect((await verify({ ...base, response: { ...base.response, output: [refusal] } })).status).toBe(500);
  });
});
