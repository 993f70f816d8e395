// One Responses-API turn through the proxy, shared by the HTTP route and the RPC entrypoint.
import type { ResponsesCreateParams, Response as ResponsesResponse } from "../../protocol/index.js";
import type { ProxyConfig } from "./config.js";
import { rejectUnsupportedItems, toChatRequest } from "./convert.js";
import { type CallContext, callModel, type ModelTurn, prepareChatBody } from "./model-call.js";
import { toResponse } from "./respond.js";

/** Params already in the Responses shape (validated at the HTTP edge, or typed from the agent) to a `Response`. */
export async function respondTurn(
  config: ProxyConfig,
  params: ResponsesCreateParams,
  context: CallContext,
): Promise<{ response: ResponsesResponse; turn: ModelTurn }> {
  rejectUnsupportedItems(params);
  const chat = prepareChatBody(config, toChatRequest(params, config), params.metadata);
  const turn = await callModel(config, chat, context);
  return { response: toResponse(turn, params), turn };
}
