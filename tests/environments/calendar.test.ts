// calendar: parity with NeMo Gym's recorded rollouts (in workerd), NeMo Gym's own tests, and grading edge cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import calendar from "../../environments/calendar/index.js";
import { gradeAssistantResponse } from "../../environments/calendar/grade.js";
import type { Json } from "../../environments/calendar/python.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import { fixtureRollouts, fixtureRows, inputKey } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "calendar";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

const response = (output: unknown[]) => ({
  id: "resp_test",
  object: "response",
  created_at: 0,
  model: "dummy",
  output,
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
});
const message = (text: string) => ({
  id: "msg_test",
  type: "message",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text, annotations: [] }],
});
const request = (output: unknown[], expected: Record<string, unknown>) => ({
  responses_create_params: { input: [] },
  response: response(output),
  exp_cal_state: expected,
});
const verifyInWorkerd = (body: unknown) => postJson(`${local.url}/v1/environments/${NAME}/verify`, body);
const verifyInNode = async (body: unknown) =>
  perform(calendar, { kind: "verify" }, body, { sessionId: "t", state: noState, signal: new AbortController().signal });

describe("parity: NeMo Gym's recorded rollouts re-verified in workerd", () => {
  const records = fixtureRollouts(NAME);
  it.each(records.map((record, i) => [i, record] as const))("recorded rollout %i: same reward as NeMo Gym", async (_i, record) => {
    // The records do not keep exp_cal_state: it comes from the example row with the same input.
    const row = fixtureRows(NAME).find((r) => inputKey(r) === inputKey(record))!;
    const { reward, ...recorded } = record;
    const answer = await verifyInWorkerd({ exp_cal_state: row.exp_cal_state, ...recorded });
    expect(answer.status).toBe(200);
    expect(answer.body.reward).toBe(reward);
    expect(answer.body.exp_cal_state).toEqual(row.exp_cal_state);
  });
  it("grades the answers for NeMo Gym's reasons (2 pass; the failures are conflicts or broken constraints)", () => {
    const reasons = records.map((record) => {
      const row = fixtureRows(NAME).find((r) => inputKey(r) === inputKey(record))!;
      const output = (record.response as { output: { type: string; content?: { text: string }[] }[] }).output;
      return gradeAssistantResponse(output.at(-1)!.content![0]!.text, row.exp_cal_state as Record<string, Json>);
    });
    expect(reasons.map(([reward]) => reward)).toEqual(records.map((r) => r.reward));
    expect(reasons.filter(([reward]) => reward === 0).every(([, why]) => why === "conflicting_events" || why === "constraint_violated")).toBe(true);
  });
});

describe("NeMo Gym's tests/test_app.py, ported", () => {
  const window = { min_time: "10:00", max_time: "16:00" };
  const event = (id: number, duration: number, constraint: string | null) => ({ event_id: id, duration, constraint, ...window });
  const between = { "0": event(0, 60, "between 2pm and 4pm") };
  const two = { ...between, "1": event(1, 90, "between 12pm and 2pm") };
  const free = (...durations: number[]) => Object.fromEntries(durations.map((d, i) => [String(i), event(i, d, null)]));
  const list = (...events: [number, string, number][]) =>
    JSON.stringify(events.map(([event_id, start_time, duration]) => ({ event_id, start_time, duration })));
  const CASES: [string, Record<string, unknown>, string, number][] = [
    ["test_valid_response_single_event", between, list([0, "2pm", 60]), 1],
    ["test_valid_response_multiple_events", two, list([0, "2pm", 60], [1, "12pm", 90]), 1],
    ["test_think_tag_present", between, `<think>Planning the schedule...</think>${list([0, "2pm", 60])}`, 0],
    ["test_no_events_expected", {}, "No events to schedule.", 1],
    ["test_invalid_json_extraction", between, "This is not valid JSON at all", 0],
    ["test_empty_calendar_state", between, "[]", 0],
    ["test_wrong_number_of_events_too_few", two, list([0, "2pm", 60]), 0],
    ["test_wrong_number_of_events_too_many", between, list([0, "2pm", 60], [1, "12pm", 90]), 0],
    ["test_time_conflict_between_events", free(60, 60), list([0, "2pm", 60], [1, "2:30pm", 60]), 0],
    ["test_constraint_before_violation", { "0": event(0, 45, "before 12:45pm") }, list([0, "12:15pm", 45]), 0],
    ["test_constraint_before_valid", { "0": event(0, 45, "before 12:45pm") }, list([0, "11:15am", 45]), 1],
    ["test_constraint_after_violation", { "0": event(0, 60, "after 2pm") }, list([0, "1:30pm", 60]), 0],
    ["test_constraint_after_valid", { "0": event(0, 60, "after 2pm") }, list([0, "2:30pm", 60]), 1],
    ["test_constraint_between_violation_starts_too_early", between, list([0, "1:30pm", 60]), 0],
    ["test_constraint_between_violation_ends_too_late", { "0": event(0, 90, "between 2pm and 4pm") }, list([0, "3pm", 90]), 0],
    ["test_constraint_between_valid", { "0": event(0, 90, "between 2pm and 4pm") }, list([0, "2pm", 90]), 1],
    ["test_constraint_at_violation", { "0": event(0, 30, "at 12:15pm") }, list([0, "12:30pm", 30]), 0],
    ["test_constraint_at_valid", { "0": event(0, 30, "at 12:15pm") }, list([0, "12:15pm", 30]), 1],
    ["test_event_starts_before_min_time", free(60), list([0, "9am", 60]), 0],
    ["test_event_ends_after_max_time", free(60), list([0, "3:30pm", 60]), 0],
    ["test_wrong_duration", free(60), list([0, "2pm", 90]), 0],
    ["test_constraint_none_valid", free(60), list([0, "2pm", 60]), 1],
    [
      "test_complex_multi_event_schedule",
      { ...two, "2": event(2, 45, "before 12pm"), "3": event(3, 30, "at 10:00") },
      list([0, "2:30pm", 60], [1, "12:30pm", 90], [2, "10:30am", 45], [3, "10:00", 30]),
      1,
    ],
  ];
  it.each(CASES)("%s", async (_name, expected, text, reward) => {
    const answer = await verifyInNode(request([message(text)], expected));
    expect(answer.status).toBe(200);
    expect((answer.body as { reward: number }).reward).toBe(reward);
  });
  it("test_sanity: the environment has no tools and reads exp_cal_state", () => {
    expect(calendar.tools.size).toBe(0);
    expect(calendar.name).toBe("calendar");
  });
});

describe("grading edge cases (expected reward and reason computed by NeMo Gym's utils.py)", () => {
  // [case, assistant text, exp_cal_state, NeMo Gym's reward, NeMo Gym's reason]
  const CASES: [string, string, Record<string, Json>, number, string][] = [
    [
      "valid",
      '[{"event_id": 0, "start_time": "2pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "surrounding text 24h",
      'Sure! Here is your calendar:\n[{"event_id": 0, "start_time": "14:00", "duration": 60}]\nAnything else?',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "space pm",
      '[{"event_id": 0, "start_time": "2 pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "uppercase PM",
      '[{"event_id": 0, "start_time": "2PM", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      0,
      "error_in_grading",
    ],
    [
      "02:00pm",
      '[{"event_id": 0, "start_time": "02:00pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "trailing space",
      '[{"event_id": 0, "start_time": "14:00 ", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "seconds",
      '[{"event_id": 0, "start_time": "14:00:00", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      0,
      "error_in_grading",
    ],
    [
      "dot",
      '[{"event_id": 0, "start_time": "14.00", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      0,
      "error_in_grading",
    ],
    [
      "int time",
      '[{"event_id": 0, "start_time": 1400, "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      0,
      "error_in_grading",
    ],
    [
      "string duration",
      '[{"event_id": 0, "start_time": "2pm", "duration": "60"}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      0,
      "error_in_grading",
    ],
    [
      "float duration",
      '[{"event_id": 0, "start_time": "2pm", "duration": 60.0}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "bool duration 1",
      '[{"event_id": 0, "start_time": "2pm", "duration": true}]',
      { "0": { event_id: 0, duration: 1, constraint: null, min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "string id",
      '[{"event_id": "0", "start_time": "2pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "float id 0.0",
      '[{"event_id": 0.0, "start_time": "2pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      0,
      "error_in_grading",
    ],
    [
      "missing id",
      '[{"id": 0, "start_time": "2pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      0,
      "error_in_grading",
    ],
    [
      "identical duplicate",
      '[{"event_id": 0, "start_time": "2pm", "duration": 60}, {"event_id": 0, "start_time": "2pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "same id different",
      '[{"event_id": 0, "start_time": "2pm", "duration": 60}, {"event_id": 0, "start_time": "3pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "nested braces",
      '[{"event_id": 0, "start_time": "2pm", "duration": 60, "event_name": {"a": 1}}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "brackets in string",
      '[{"event_id": 0, "event_name": "lunch [x]", "start_time": "2pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      0,
      "no_json_list",
    ],
    [
      "think",
      '<think>x</think>[{"event_id": 0, "start_time": "2pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      0,
      "think_found",
    ],
    ["think with empty expected", "<think>x</think> nothing", {}, 0, "think_found"],
    ["empty expected", "no events", {}, 1, "pass"],
    ["empty list", "[]", { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } }, 0, "no_json_list"],
    [
      "non-dict element",
      '[1, {"event_id": 0, "start_time": "2pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      0,
      "error_in_grading",
    ],
    [
      "trailing comma",
      '[{"event_id": 0, "start_time": "2pm", "duration": 60},]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      0,
      "no_json_list",
    ],
    [
      "NaN",
      '[{"event_id": 0, "start_time": "2pm", "duration": NaN}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      0,
      "constraint_violated",
    ],
    [
      "first list wins",
      'first [{"event_id": 9}] then [{"event_id": 0, "start_time": "2pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      0,
      "error_in_grading",
    ],
    [
      "conflict",
      '[{"event_id": 0, "start_time": "11am", "duration": 60}, {"event_id": 1, "start_time": "11:00", "duration": 30}]',
      {
        "0": { event_id: 0, duration: 60, constraint: null, min_time: "10:00", max_time: "16:00" },
        "1": { event_id: 1, duration: 30, constraint: "at 11am", min_time: "10:00", max_time: "16:00" },
      },
      0,
      "conflicting_events",
    ],
    [
      "adjacent ok",
      '[{"event_id": 0, "start_time": "10am", "duration": 60}, {"event_id": 1, "start_time": "11:00am", "duration": 30}]',
      {
        "0": { event_id: 0, duration: 60, constraint: null, min_time: "10:00", max_time: "16:00" },
        "1": { event_id: 1, duration: 30, constraint: "at 11am", min_time: "10:00", max_time: "16:00" },
      },
      1,
      "pass",
    ],
    [
      "12pm",
      '[{"event_id": 0, "start_time": "12pm", "duration": 60}, {"event_id": 1, "start_time": "11am", "duration": 30}]',
      {
        "0": { event_id: 0, duration: 60, constraint: null, min_time: "10:00", max_time: "16:00" },
        "1": { event_id: 1, duration: 30, constraint: "at 11am", min_time: "10:00", max_time: "16:00" },
      },
      1,
      "pass",
    ],
    [
      "12am before min",
      '[{"event_id": 0, "start_time": "12am", "duration": 60}, {"event_id": 1, "start_time": "11am", "duration": 30}]',
      {
        "0": { event_id: 0, duration: 60, constraint: null, min_time: "10:00", max_time: "16:00" },
        "1": { event_id: 1, duration: 30, constraint: "at 11am", min_time: "10:00", max_time: "16:00" },
      },
      0,
      "constraint_violated",
    ],
    [
      "12:30pm",
      '[{"event_id": 0, "start_time": "12:30pm", "duration": 60}, {"event_id": 1, "start_time": "11am", "duration": 30}]',
      {
        "0": { event_id: 0, duration: 60, constraint: null, min_time: "10:00", max_time: "16:00" },
        "1": { event_id: 1, duration: 30, constraint: "at 11am", min_time: "10:00", max_time: "16:00" },
      },
      1,
      "pass",
    ],
    [
      "ends at max",
      '[{"event_id": 0, "start_time": "3pm", "duration": 60}, {"event_id": 1, "start_time": "11am", "duration": 30}]',
      {
        "0": { event_id: 0, duration: 60, constraint: null, min_time: "10:00", max_time: "16:00" },
        "1": { event_id: 1, duration: 30, constraint: "at 11am", min_time: "10:00", max_time: "16:00" },
      },
      1,
      "pass",
    ],
    [
      "past max",
      '[{"event_id": 0, "start_time": "3:01pm", "duration": 60}, {"event_id": 1, "start_time": "11am", "duration": 30}]',
      {
        "0": { event_id: 0, duration: 60, constraint: null, min_time: "10:00", max_time: "16:00" },
        "1": { event_id: 1, duration: 30, constraint: "at 11am", min_time: "10:00", max_time: "16:00" },
      },
      0,
      "constraint_violated",
    ],
    [
      "underscore int",
      '[{"event_id": 0, "start_time": "1_0:00", "duration": 60}, {"event_id": 1, "start_time": "11am", "duration": 30}]',
      {
        "0": { event_id: 0, duration: 60, constraint: null, min_time: "10:00", max_time: "16:00" },
        "1": { event_id: 1, duration: 30, constraint: "at 11am", min_time: "10:00", max_time: "16:00" },
      },
      1,
      "pass",
    ],
    [
      "fullwidth digits",
      '[{"event_id": 0, "start_time": "１０:００", "duration": 60}, {"event_id": 1, "start_time": "11am", "duration": 30}]',
      {
        "0": { event_id: 0, duration: 60, constraint: null, min_time: "10:00", max_time: "16:00" },
        "1": { event_id: 1, duration: 30, constraint: "at 11am", min_time: "10:00", max_time: "16:00" },
      },
      1,
      "pass",
    ],
    [
      "too many",
      '[{"event_id": 0, "start_time": "10:00", "duration": 60}, {"event_id": 1, "start_time": "11am", "duration": 30}, {"event_id": 2, "start_time": "1pm", "duration": 30}]',
      {
        "0": { event_id: 0, duration: 60, constraint: null, min_time: "10:00", max_time: "16:00" },
        "1": { event_id: 1, duration: 30, constraint: "at 11am", min_time: "10:00", max_time: "16:00" },
      },
      0,
      "different_number_of_events",
    ],
    [
      "bad between",
      '[{"event_id": 0, "start_time": "2pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 3pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      0,
      "error_in_grading",
    ],
    [
      "unknown constraint",
      '[{"event_id": 0, "start_time": "2pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "around 2pm", min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "before exact",
      '[{"event_id": 0, "start_time": "2pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "before 3pm", min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "after exact",
      '[{"event_id": 0, "start_time": "2pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "after 2pm", min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "at 24h",
      '[{"event_id": 0, "start_time": "2pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "at 14:00", min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "missing constraint key",
      '[{"event_id": 0, "start_time": "2pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, min_time: "10:00", max_time: "16:00" } },
      0,
      "error_in_grading",
    ],
    [
      "constraint not str",
      '[{"event_id": 0, "start_time": "2pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: 5, min_time: "10:00", max_time: "16:00" } },
      0,
      "error_in_grading",
    ],
    [
      "expected float duration",
      '[{"event_id": 0, "start_time": "2pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60.0, constraint: null, min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "wrong id key",
      '[{"event_id": 0, "start_time": "2pm", "duration": 60}]',
      { "1": { event_id: 1, duration: 60, constraint: null, min_time: "10:00", max_time: "16:00" } },
      0,
      "error_in_grading",
    ],
    [
      "pm2",
      '[{"event_id": 0, "start_time": "pm2", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "ampm",
      '[{"event_id": 0, "start_time": "2ampm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      0,
      "error_in_grading",
    ],
    [
      "leading space",
      '[{"event_id": 0, "start_time": " 2pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "pm seconds",
      '[{"event_id": 0, "start_time": "2:00:00pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      0,
      "error_in_grading",
    ],
    [
      "negative",
      '[{"event_id": 0, "start_time": "-1:00", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: null, min_time: "-2:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "two lists",
      '[{"event_id": 0, "start_time": "2pm", "duration": 60}]\n[{"event_id": 0, "start_time": "3pm", "duration": 60}]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "pretty",
      '[\n  {\n    "event_id": 0,\n    "start_time": "14:00",\n    "duration": 60\n  }\n]',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      1,
      "pass",
    ],
    [
      "unclosed",
      '[{"event_id": 0, "start_time": "2pm", "duration": 60}',
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      0,
      "no_json_list",
    ],
    [
      "single quotes",
      "[{'event_id': 0, 'start_time': '2pm', 'duration': 60}]",
      { "0": { event_id: 0, duration: 60, constraint: "between 2pm and 4pm", min_time: "10:00", max_time: "16:00" } },
      0,
      "no_json_list",
    ],
  ];
  it.each(CASES)("%s", (_note, text, expected, reward, reason) => {
    expect(gradeAssistantResponse(text, expected)).toEqual([reward, reason]);
  });
  it.each(CASES.filter((_c, i) => i % 5 === 0))("in workerd: %s", async (_note, text, expected, reward) => {
    const answer = await verifyInWorkerd(request([message(text)], expected));
    expect(answer.body.reward).toBe(reward);
  });
});

describe("which text is graded: the first content part of the last output item", () => {
  const expected = { "0": { event_id: 0, duration: 60, constraint: null, min_time: "10:00", max_time: "16:00" } };
  const good = '[{"event_id": 0, "start_time": "14:00", "duration": 60}]';
  const reasoning = (text?: string) => ({
    type: "reasoning",
    id: "rs",
    summary: [],
    ...(text === undefined ? {} : { content: [{ type: "reasoning_text", text }] }),
  });
  const reward = async (output: unknown[]) => (await verifyInWorkerd(request(output, expected))).body.reward;

  it("a model cut off while thinking is graded on its reasoning text, if it has any", async () => {
    expect(await reward([reasoning(good)])).toBe(1);
    expect(await reward([reasoning()])).toBe(0);
  });
  it("a right answer followed by any other item scores 0", async () => {
    expect(await reward([message(good), reasoning()])).toBe(0);
    expect(await reward([message(good), { type: "function_call", call_id: "c", name: "f", arguments: "{}" }])).toBe(0);
  });
  it("only the first content part counts; no output scores 0", async () => {
    const twoParts = {
      ...message("Here you go:"),
      content: [
        { type: "output_text", text: "Here you go:", annotations: [] },
        { type: "output_text", text: good, annotations: [] },
      ],
    };
    expect(await reward([twoParts])).toBe(0);
    expect(await reward([])).toBe(0);
  });
  it("a refusal part has no .text: NeMo Gym's verify raises, so the request fails", async () => {
    const refusal = { ...message(""), content: [{ type: "refusal", refusal: "I can't." }] };
    expect((await verifyInWorkerd(request([refusal], expected))).status).toBe(500);
  });
  it("exp_cal_state is required", async () => {
    expect((await verifyInWorkerd({ responses_create_params: { input: [] }, response: response([message(good)]) })).status).toBe(400);
  });
});
