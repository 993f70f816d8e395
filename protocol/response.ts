// The OpenAI Responses `Response` object as NeMo Gym's model servers return it.
import { z } from "zod";
import { Item } from "./items.js";

export const Usage = z.looseObject({
  input_tokens: z.number(),
  output_tokens: z.number(),
  total_tokens: z.number(),
});
export type Usage = z.infer<typeof Usage>;

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
  usage: Usage.nullish(),
});
export type Response = z.infer<typeof Response>;
