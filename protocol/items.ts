// Conversation items of the OpenAI Responses API as NeMo Gym uses them: messages, tool calls, tool outputs, reasoning.
import { z } from "zod";

/** A content part of a message: input_text, output_text, refusal, images… Unknown fields pass through. */
export const ContentPart = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
});
export type ContentPart = z.infer<typeof ContentPart>;

export const MessageRole = z.enum(["user", "system", "developer", "assistant"]);
export type MessageRole = z.infer<typeof MessageRole>;

/**
 * A message. NeMo Gym datasets often omit `type` ("easy input messages"); the parsed item always has it,
 * as NeMo Gym's own recorded rollouts do.
 */
export const MessageItem = z.looseObject({
  type: z.literal("message").default("message"),
  role: MessageRole,
  content: z.union([z.string(), z.array(ContentPart)]),
  id: z.string().nullish(),
  status: z.string().nullish(),
});
export type MessageItem = z.infer<typeof MessageItem>;

export const FunctionCallItem = z.looseObject({
  type: z.literal("function_call"),
  name: z.string(),
  /** JSON-encoded arguments, exactly as the model produced them (may be invalid JSON). */
  arguments: z.string(),
  call_id: z.string(),
  id: z.string().nullish(),
  status: z.string().nullish(),
});
export type FunctionCallItem = z.infer<typeof FunctionCallItem>;

export const FunctionCallOutputItem = z.looseObject({
  type: z.literal("function_call_output"),
  call_id: z.string(),
  output: z.union([z.string(), z.array(ContentPart)]),
  id: z.string().nullish(),
  status: z.string().nullish(),
});
export type FunctionCallOutputItem = z.infer<typeof FunctionCallOutputItem>;

export const ReasoningItem = z.looseObject({
  type: z.literal("reasoning"),
  id: z.string().nullish(),
  summary: z.array(z.looseObject({ type: z.string().optional(), text: z.string() })).default([]),
  content: z.array(ContentPart).nullish(),
  encrypted_content: z.string().nullish(),
});
export type ReasoningItem = z.infer<typeof ReasoningItem>;

/** Any conversation item, told apart by `type` (a missing type means a message). */
export const Item = z.preprocess(
  (value) =>
    value !== null && typeof value === "object" && !Array.isArray(value) && !("type" in value) && "role" in value ? { ...value, type: "message" } : value,
  z.discriminatedUnion("type", [MessageItem, FunctionCallItem, FunctionCallOutputItem, ReasoningItem]),
);
export type Item = z.infer<typeof Item>;

/** The text of a message's content, whether a string or a list of parts. */
export function contentText(content: MessageItem["content"] | FunctionCallOutputItem["output"]): string {
  if (typeof content === "string") return content;
  return content.map((part) => part.text ?? "").join("");
}
