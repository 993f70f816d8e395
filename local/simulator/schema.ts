// Zod schemas for what the simulator accepts: Chat Completions requests and scripted replies.
import { z } from "zod";

// Parts of multimodal content; only text matters to the simulator, other parts pass through.
const contentPartSchema = z.looseObject({ type: z.string(), text: z.string().optional() });
const contentSchema = z.union([z.string(), z.array(contentPartSchema), z.null()]).optional();

export const requestToolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal("function").optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

// OpenAI's roles; "function" is deprecated but still valid on the wire, anything else is a 400.
export const roleSchema = z.enum(["system", "developer", "user", "assistant", "tool", "function"]);

export const messageSchema = z.looseObject({
  role: roleSchema,
  content: contentSchema,
  name: z.string().optional(),
  tool_calls: z.array(requestToolCallSchema).nullish(),
  tool_call_id: z.string().optional(),
});

// JSON Schema stays opaque here: the policy reads it defensively.
export const jsonSchemaSchema = z.record(z.string(), z.unknown());

export const toolSchema = z.looseObject({
  type: z.literal("function"),
  function: z.looseObject({
    name: z.string().min(1),
    description: z.string().nullish(),
    parameters: jsonSchemaSchema.nullish(),
  }),
});

export const toolChoiceSchema = z.union([
  z.enum(["none", "auto", "required"]),
  z.looseObject({ type: z.literal("function"), function: z.looseObject({ name: z.string() }) }),
]);

/** vLLM's ResponseFormat: `json_schema` carries `{ name, schema?, strict? }` (the schema under the key `schema`). */
export const responseFormatSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text") }),
  z.looseObject({ type: z.literal("json_object") }),
  z.looseObject({
    type: z.literal("json_schema"),
    json_schema: z.looseObject({
      name: z.string(),
      description: z.string().nullish(),
      schema: z.union([jsonSchemaSchema, z.boolean()]).nullish(),
      strict: z.boolean().nullish(),
    }),
  }),
]);
export type ResponseFormat = z.infer<typeof responseFormatSchema>;

export const chatCompletionRequestSchema = z.looseObject({
  model: z.string().optional(),
  messages: z.array(messageSchema).min(1, "messages must contain at least one message"),
  tools: z.array(toolSchema).nullish(),
  tool_choice: toolChoiceSchema.nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  stream: z.boolean().nullish(),
  response_format: responseFormatSchema.nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  max_tokens: z.number().int().nullish(),
  max_completion_tokens: z.number().int().nullish(),
  // vLLM's token and reasoning knobs.
  logprobs: z.boolean().nullish(),
  top_logprobs: z.number().int().min(0).nullish(),
  return_tokens_as_token_ids: z.boolean().nullish(),
  return_token_ids: z.boolean().nullish(),
  reasoning_effort: z.string().nullish(),
  chat_template_kwargs: z.record(z.string(), z.unknown()).nullish(),
});

export type ChatMessage = z.infer<typeof messageSchema>;
export type ChatTool = z.infer<typeof toolSchema>;
export type ToolChoice = z.infer<typeof toolChoiceSchema>;
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;
/** What callers may send: the same shape before defaults and normalisation. */
export type ChatCompletionRequestInput = z.input<typeof chatCompletionRequestSchema>;

export const scriptedToolCallSchema = z.object({
  name: z.string().min(1),
  arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).default({}),
});

export const finishReasonSchema = z.enum(["stop", "tool_calls", "length", "content_filter"]);

export const scriptedReplySchema = z.object({
  content: z.string().nullish(),
  /** Reasoning the model writes before answering (returned as vLLM's reasoning field). */
  reasoning: z.string().optional(),
  tool_calls: z.array(scriptedToolCallSchema).optional(),
  finish_reason: finishReasonSchema.optional(),
  delay_ms: z.number().nonnegative().optional(),
  status: z.number().int().min(100).max(599).optional(),
  error: z.string().optional(),
  /** Close the connection without answering. */
  drop: z.boolean().optional(),
  /** Answer 200 with a body cut short (not JSON). */
  malformed: z.boolean().optional(),
});

export const scriptBodySchema = z.object({ replies: z.array(scriptedReplySchema) });

export type ScriptedReply = z.infer<typeof scriptedReplySchema>;
/** A reply as written by a test: arguments may be omitted. */
export type ScriptedReplyInput = z.input<typeof scriptedReplySchema>;
export type FinishReason = z.infer<typeof finishReasonSchema>;

/** vLLM's POST /tokenize takes chat messages (rendered by the chat template) or a plain prompt. */
export const tokenizeChatSchema = z.looseObject({
  messages: z.array(messageSchema),
  tools: z.array(toolSchema).nullish(),
  add_generation_prompt: z.boolean().nullish(),
  return_token_strs: z.boolean().nullish(),
});
export const tokenizePromptSchema = z.looseObject({
  prompt: z.string(),
  add_special_tokens: z.boolean().nullish(),
  return_token_strs: z.boolean().nullish(),
});

export const detokenizeRequestSchema = z.looseObject({ tokens: z.array(z.number().int().nonnegative()) });
