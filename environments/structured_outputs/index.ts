// Port of NeMo Gym's structured_outputs: the answer (text in JSON/YAML/XML/TOML/CSV, or one tool call) must fit the row's schema.
import { defineEnvironment, z } from "../sdk/index.js";
import { toolCallPayload, responseText } from "./answer.js";
import { SCHEMA_TYPES, evaluateObject, evaluateText } from "./evaluate.js";
import { computeMetrics } from "./metrics.js";

const text = z.string().nullable().default(null);
const int = z.number().int().nullable().default(null);
const bool = z.boolean().nullable().default(null);

export default defineEnvironment({
  name: "structured_outputs",
  description:
    "Schema adherence: the answer, as JSON/YAML/XML/TOML/CSV text or as one tool call's arguments, must validate against the row's JSON Schema made strict (every property required, no extras).",
  // StructuredOutputsVerifyRequest: the schema and its format, plus the v3/v4 row descriptors echoed back and grouped in metrics.
  task: z.object({
    schema_str: z.string(),
    schema_type: z.enum(SCHEMA_TYPES).default("json"),
    problem_type: text,
    schema_repr: text,
    source_format: text,
    num_turns: int,
    source_record_id: text,
    response_mode: z.string().nullable().default("text"),
    tool_name: text,
    tool_schema_mode: text,
    tool_payload_key: text,
    tool_choice: text,
    parallel_tool_calls: bool,
    source_schema_type: text,
    num_tools: int,
    num_distractors: int,
    has_distractors: bool,
    instruction_layout: text,
    instruction_detail_level: text,
    system_instruction_style: text,
    tool_name_style: text,
    distractor_style: text,
    tool_union_mode: text,
  }),
  tools: {},
  // One model turn, as NeMo Gym's agents for this server run it: for v4 rows the function call *is* the answer
  // (its non_executing_simple_agent), not an action to execute and answer again.
  maxSteps: 1,
  verify: (request) => {
    if (request.response_mode === "tool_call") {
      const extracted = toolCallPayload(request.response, { toolName: request.tool_name, toolPayloadKey: request.tool_payload_key });
      return "payload" in extracted ? evaluateObject(request.schema_str, extracted.payload) : extracted;
    }
    return evaluateText(request.schema_type, request.schema_str, responseText(request.response));
  },
  computeMetrics,
});
