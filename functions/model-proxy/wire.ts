// What vLLM's OpenAI-compatible server sends and takes: chat completion bodies as the proxy reads and builds them.
import { z } from "zod";

/** A Chat Completions request body as sent upstream: OpenAI's fields plus vLLM's extras, kept open. */
export type ChatBody = Record<string, unknown> & { messages: ChatMessage[] };
export type ChatMessage = Record<string, unknown> & { role: string };

export const ToolCall = z.looseObject({
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z.looseObject({ name: z.string(), arguments: z.string().nullish() }),
});
export type ToolCall = z.infer<typeof ToolCall>;

export const UpstreamMessage = z.looseObject({
  role: z.string().nullish(),
  content: z.string().nullish(),
  /** vLLM's reasoning parser output: `reasoning_content` before 0.16, `reasoning` since (some versions send both). */
  reasoning_content: z.string().nullish(),
  reasoning: z.string().nullish(),
  tool_calls: z.array(ToolCall).nullish(),
});
export type UpstreamMessage = z.infer<typeof UpstreamMessage>;

export const UpstreamUsage = z.looseObject({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number(),
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: z.number().nullish() }).nullish(),
});
export type UpstreamUsage = z.infer<typeof UpstreamUsage>;

// Token ids and logprobs stay `unknown` here: they can be tens of thousands of entries, checked once where they are read.
export const UpstreamChoice = z.looseObject({
  index: z.number().optional(),
  message: UpstreamMessage,
  finish_reason: z.string().nullish(),
  logprobs: z.unknown().optional(),
  token_ids: z.unknown().optional(),
});
export type UpstreamChoice = z.infer<typeof UpstreamChoice>;

export const UpstreamCompletion = z.looseObject({
  id: z.string().optional(),
  object: z.string().optional(),
  created: z.number().optional(),
  model: z.string().optional(),
  choices: z.array(UpstreamChoice).min(1),
  usage: UpstreamUsage.nullish(),
  prompt_token_ids: z.unknown().optional(),
});
export type UpstreamCompletion = z.infer<typeof UpstreamCompletion>;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function hexId(prefix: string): string {
  return `${prefix}${crypto.randomUUID().replace(/-/g, "")}`;
}
