// The OpenAI Responses `Response` object as NeMo Gym's model servers return it.
import { z } from "zod";
import { Item } from "./items.js";

export const Usage = z.looseObject({
  input_tokens: z.number(),
  output_tokens: z.number(),
  total_tokens: z.number(),
});
export type Usage = z.infer<typeof Usage>;

/**
 * A Chat Completions usage (prompt_tokens, completion_tokens), as some of NeMo Gym's recorded rollouts carry (mrcr's),
 * read as the Responses usage it counts: its own fields are kept beside input_tokens and output_tokens.
 */
function fromChatUsage(value: unknown): unknown {
  if (value === null || typeof value !== "object" || "input_tokens" in value || !("prompt_tokens" in value)) return value;
  const chat = value as { prompt_tokens: unknown; completion_tokens?: unknown };
  return { ...value, input_tokens: chat.prompt_tokens, output_tokens: chat.completion_tokens };
}

export const Response = z.looseObject({
  id: z.string(),
  object: z.literal("response").default("response"),
  created_at: z.number(),
  model: z.string(),
  /** NeMo Gym's agents put the whole trajectory here: model outputs and the tool outputs between them. */
  output: z.array(Item),
  status: z.string().nullish(),
  incomplete_details: z.looseObject({ reason: z.string().nullish() }).nullish(),
  error: z.unknown().optional(),
  usage: z.preprocess(fromChatUsage, Usage.nullish()),
});
export type Response = z.infer<typeof Response>;
