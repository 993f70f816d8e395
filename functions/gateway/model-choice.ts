// A trainer's model choice on /run and on a job: NeMo Gym's policy keys and token ids, checked here and allowed by scope.
import type { Context } from "hono";
import { z } from "zod";
import type { ModelChoice } from "../../contracts/rpc.js";
import type { AllowRule } from "../../contracts/outbound.js";
import { allows, type Scope } from "../../contracts/tokens.js";
import { checkPolicyUrl } from "../../http/outbound/allow.js";
import type { GatewayContext } from "./caller.js";
import { EdgegymError } from "../../protocol/index.js";

const flag = z.union([z.boolean(), z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1")]);
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

/** NeMo Gym's names for the policy model (policy_base_url may list several servers, comma-separated). */
export const ModelFields = z.object({
  policy_base_url: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((url) => url.trim())
        .filter(Boolean),
    )
    .pipe(z.array(httpUrl).min(1, "names no URL").max(64, "lists more than 64 servers"))
    .optional(),
  policy_model_name: z.string().trim().min(1).optional(),
  /** Token ids and logprobs on each model call's last output item (for training); the model proxy's setting when unset. */
  return_token_ids: flag.optional(),
  /** `mcp`: the model sees the environment's tools as an MCP client names them (`mcp__<environment>__<tool>`). */
  tool_names: z.enum(["plain", "mcp"]).optional(),
});
export type ModelFields = z.infer<typeof ModelFields>;

/** The scope a token needs to name the policy model (the security layer defines scopes; this is the one this feature asks for). */
export const MODEL_SCOPE: Scope = "model";

/** The token's scopes: an admin token may do anything, so its scopes are read through `allows`. */
function mayNameModel(c: Context<GatewayContext>): boolean {
  const caller = c.get("caller");
  return caller === undefined || allows(caller.scopes, MODEL_SCOPE);
}

/**
 * The model choice the fields ask for; naming the policy model needs the `model` scope, and each policy URL must be
 * allowed by POLICY_URL_ALLOW and the address policy (403 `policy_url_not_allowed`), before anything is queued or called.
 */
export function modelChoice(c: Context<GatewayContext>, fields: ModelFields, allow: readonly AllowRule[]): ModelChoice {
  const { policy_base_url: baseUrls, policy_model_name: model, return_token_ids: returnTokenIds, tool_names: toolNames } = fields;
  const choice: ModelChoice = { ...(returnTokenIds === undefined ? {} : { returnTokenIds }), ...(toolNames === undefined ? {} : { toolNames }) };
  if (!baseUrls && !model) return choice;
  if (baseUrls && !model) {
    throw new EdgegymError(400, "invalid_request", "policy_base_url needs policy_model_name: the name the policy model is served under");
  }
  if (!mayNameModel(c)) {
    throw new EdgegymError(403, "forbidden", `naming the policy model needs a token with the "${MODEL_SCOPE}" scope`);
  }
  for (const url of baseUrls ?? []) checkPolicyUrl(allow, url);
  return { ...choice, policy: { ...(baseUrls ? { baseUrls } : {}), ...(model ? { model } : {}) } };
}
