// The prompts byte for byte: NeMo Gym's own app.py methods, run in CPython, against the port's judge and simulator prompts.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { combinedSystemMessage } from "../../environments/conversational_tool_use_simulation/combined.js";
import { formatMessage, formatMessageList } from "../../environments/conversational_tool_use_simulation/format.js";
import { type EvaluationType, systemMessage } from "../../environments/conversational_tool_use_simulation/judge.js";
import {
  COMBINED_EVALUATION_SCHEMA,
  EVALUATION_SCHEMA,
  MESSAGE_CONVERSATION_TEMPLATE,
  COMPLETE_CONVERSATION_TEMPLATE,
} from "../../environments/conversational_tool_use_simulation/prompts.js";
import { environmentSimulatorMessages, userSimulatorMessages } from "../../environments/conversational_tool_use_simulation/simulate.js";
import { type Conversation, type ConversationMessage, newConversation, Task } from "../../environments/conversational_tool_use_simulation/state.js";
import { pyFormat } from "../../environments/sdk/python/index.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { fixtureRollouts } from "../helpers/fixtures.js";

const FIXTURE = path.join(PROJECT_ROOT, "tests", "fixtures", "nemo-gym", "conversational_tool_use_simulation");
const SCRIPT = path.join(PROJECT_ROOT, "tests", "environments", "conversational_tool_use_simulation.prompts.py");

type Json = Record<string, unknown>;

/** NeMo Gym's prompts for this conversation, computed by its own code. */
function nemoGymPrompts(row: Json, messages: ConversationMessage[]) {
  const state = { policy: row.policy, customer_scenario: row.customer_scenario, tools: row.tools, messages };
  const run = spawnSync("python3", [SCRIPT], {
    input: JSON.stringify({ app: path.join(FIXTURE, "app.py"), state, evaluation_schema: EVALUATION_SCHEMA, combined_schema: COMBINED_EVALUATION_SCHEMA }),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as {
    judge: Record<EvaluationType, string>;
    combined: string;
    step: string;
    conversation: string;
    user: Json[];
    tool_simulator: Json[];
  };
}

function conversationOf(row: Json, messages: ConversationMessage[]): Conversation {
  return { ...newConversation(Task.parse(row)), messages };
}

const plain = (turns: { role: string; content: string }[]) => turns.map(({ role, content }) => ({ role, content }));

function expectSamePrompts(row: Json, messages: ConversationMessage[]) {
  const expected = nemoGymPrompts(row, messages);
  const state = conversationOf(row, messages);
  for (const type of ["user", "agent", "environment", "agent_conversation"] as const) expect(systemMessage(state, type), type).toBe(expected.judge[type]);
  expect(combinedSystemMessage(state)).toBe(expected.combined);
  expect(
    pyFormat(MESSAGE_CONVERSATION_TEMPLATE, { previous_steps: formatMessageList(messages.slice(0, -1)), current_step: formatMessage(messages.at(-1)!) }),
  ).toBe(expected.step);
  expect(pyFormat(COMPLETE_CONVERSATION_TEMPLATE, { steps: formatMessageList(messages) })).toBe(expected.conversation);
  expect(plain(userSimulatorMessages(state))).toEqual(expected.user);
  expect(plain(environmentSimulatorMessages(state))).toEqual(expected.tool_simulator);
}

/** A recorded trajectory's messages as the session holds them. */
function messagesOf(record: Json): ConversationMessage[] {
  const recorded = (record.result as { trajectory: { messages: Json[] } }).trajectory.messages;
  return recorded.map((m) => ({
    type: m.type as ConversationMessage["type"],
    source: m.source as ConversationMessage["source"],
    content: m.type === "text" ? m.text : m.type === "tool_execution" ? m.execution_result : null,
    tool_call_id: (m.tool_call_id as string | undefined) ?? null,
    tool_name: (m.tool_name as string | undefined) ?? null,
    arguments: (m.arguments as string | undefined) ?? null,
  }));
}

describe("the judge's and the simulators' prompts, against NeMo Gym's code in CPython", () => {
  for (const [n, record] of fixtureRollouts("conversational_tool_use_simulation").entries()) {
    it(`recorded rollout ${n}: every system prompt, the step and conversation prompts, the user and tool simulator turns`, () => {
      expectSamePrompts(record, messagesOf(record));
    });
  }

  it("edge cases: braces in the policy, blank and indented scenario lines, unknown_info, non-ASCII docs, a transfer", () => {
    const row = {
      policy: "Be kind.\n{braces} stay {{ as }} they are",
      customer_scenario: {
        customer_persona: "A\n\n  B  \r\nC\u2028D",
        reason_for_contact: "",
        customer_details: "d\t",
        unknown_info: "the order number",
        task_instructions: "t",
        representative_domain: null,
        outside_policy_scope: true,
      },
      tools: [
        { name: "look", doc: "Doc é ☃", params: { type: "object", properties: { n: { type: "integer", enum: [1, 2] } } }, returns: null },
        { name: "plain", description: "From description", parameters: null, returns: { type: "array", items: { type: "string" } } },
      ],
    };
    const messages: ConversationMessage[] = [
      { type: "text", source: "user", content: "Customer: hi {there}" },
      { type: "tool_call", source: "agent", tool_call_id: "c1", tool_name: "look", arguments: '{"n": 1}' },
      { type: "tool_execution", source: "environment", tool_call_id: "c1", tool_name: "look", content: '```json\n{"x": "é"}\n```' },
      { type: "text", source: "agent", content: "Transferring you." },
      { type: "text", source: "user", content: "###TRANSFER###" },
    ];
    expectSamePrompts(row, messages);
  });
});
