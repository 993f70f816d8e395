// The policy (and judge) model in process on AWS: the model proxy's own logic (Responses API ⇄ Chat Completions, token ids,
// retries, several upstreams) called directly, without a model-proxy Worker between the agent and vLLM.
import { ModelProxyVars } from "../contracts/config.js";
import type { ModelRpc } from "../contracts/rpc.js";
import { callConfig } from "../functions/model-proxy/call-config.js";
import { readConfig } from "../functions/model-proxy/config.js";
import { respondTurn } from "../functions/model-proxy/turn.js";
import { rpcError } from "../http/errors.js";
import { osResolver } from "../local/resolver.js";

type Vars = Record<string, string | undefined>;

/**
 * A model from the model proxy's variables (MODEL_BASE_URLS or MODEL_BASE_URL, MODEL_NAME, MODEL_API_KEY, and the rest of
 * its settings). The configuration is checked here, at start-up, so a worker with no model says so before it takes work.
 * A job's own policy model (its manifest's) is called as on Cloudflare: its URLs checked against POLICY_URL_ALLOW, and
 * each name resolved by the OS and checked before every connection.
 */
export function inProcessModel(vars: Vars): ModelRpc {
  const config = readConfig(vars);
  return {
    async respond(params, options = {}) {
      try {
        const signal = options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined;
        const { response } = await respondTurn(callConfig(config, options, osResolver), params, {
          ...(options.sessionId ? { sessionId: options.sessionId } : {}),
          ...(signal ? { signal } : {}),
        });
        return { ok: true, value: response };
      } catch (error) {
        return { ok: false, error: rpcError(error) };
      }
    },
  };
}

const first = (...values: (string | undefined)[]) => values.find((value) => value !== undefined && value !== "");

/**
 * The policy model's variables from an environment: the model proxy's own names (what the Lambda is deployed with), or the
 * CLI's EDGEGYM_MODEL_URL, EDGEGYM_MODEL, EDGEGYM_MODEL_API_KEY and EDGEGYM_RETURN_TOKEN_ID_INFORMATION.
 */
export function policyVars(env: Vars): Vars {
  const own = Object.fromEntries(Object.keys(ModelProxyVars.shape).map((name) => [name, env[name]]));
  return {
    ...own,
    MODEL_BASE_URLS: first(env.MODEL_BASE_URLS, env.MODEL_BASE_URL, env.EDGEGYM_MODEL_URL),
    MODEL_NAME: first(env.MODEL_NAME, env.EDGEGYM_MODEL),
    MODEL_API_KEY: first(env.MODEL_API_KEY, env.EDGEGYM_MODEL_API_KEY),
    RETURN_TOKEN_ID_INFORMATION: first(env.RETURN_TOKEN_ID_INFORMATION, env.EDGEGYM_RETURN_TOKEN_ID_INFORMATION),
    POLICY_URL_ALLOW: first(env.POLICY_URL_ALLOW, env.EDGEGYM_POLICY_URL_ALLOW),
  };
}

/** The judge's variables: JUDGE_BASE_URLS / JUDGE_MODEL_NAME / JUDGE_API_KEY (or EDGEGYM_JUDGE_*), else the policy model's. */
export function judgeVars(env: Vars): Vars {
  const policy = policyVars(env);
  const url = first(env.JUDGE_BASE_URLS, env.EDGEGYM_JUDGE_URL);
  return {
    ...policy,
    // Token ids are for training the policy; a judge's answers never need them.
    RETURN_TOKEN_ID_INFORMATION: "false",
    MODEL_BASE_URLS: url ?? policy.MODEL_BASE_URLS,
    MODEL_NAME: first(env.JUDGE_MODEL_NAME, env.EDGEGYM_JUDGE_MODEL) ?? (url ? undefined : policy.MODEL_NAME),
    MODEL_API_KEY: first(env.JUDGE_API_KEY, env.EDGEGYM_JUDGE_API_KEY) ?? (url ? undefined : policy.MODEL_API_KEY),
  };
}
