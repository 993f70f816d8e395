// vLLM's POST /tokenize and /detokenize (served at the root, not under /v1): the same template and tokenizer as generation.
import { badRequest, parseJson, zodProblem, type HttpResult } from "./chat.js";
import { detokenizeRequestSchema, tokenizeChatSchema, tokenizePromptSchema } from "./schema.js";
import { decodeTokens, encodeText, promptTokenIds } from "./template.js";

function tokenized(tokens: number[], maxModelLen: number, strings: boolean): HttpResult {
  return {
    status: 200,
    json: { count: tokens.length, max_model_len: maxModelLen, tokens, token_strs: strings ? tokens.map((id) => decodeTokens([id])) : null },
  };
}

export function handleTokenize(body: string, maxModelLen: number): HttpResult {
  const json = parseJson(body);
  if (!json.ok) return badRequest("Invalid JSON in request body");
  const value = json.value;
  if (value !== null && typeof value === "object" && "messages" in value) {
    const chat = tokenizeChatSchema.safeParse(value);
    if (!chat.success) return zodProblem(chat.error);
    const { messages, tools, add_generation_prompt } = chat.data;
    return tokenized(promptTokenIds({ messages, tools: tools ?? null }, add_generation_prompt !== false), maxModelLen, chat.data.return_token_strs === true);
  }
  const prompt = tokenizePromptSchema.safeParse(value);
  if (!prompt.success) return zodProblem(prompt.error);
  return tokenized(encodeText(prompt.data.prompt), maxModelLen, prompt.data.return_token_strs === true);
}

export function handleDetokenize(body: string): HttpResult {
  const json = parseJson(body);
  if (!json.ok) return badRequest("Invalid JSON in request body");
  const parsed = detokenizeRequestSchema.safeParse(json.value);
  if (!parsed.success) return zodProblem(parsed.error);
  return { status: 200, json: { prompt: decodeTokens(parsed.data.tokens) } };
}
