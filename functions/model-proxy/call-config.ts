// The configuration one model call runs with: the proxy's own, or with the caller's policy model and token choice in its place.
import type { ModelChoice } from "../../contracts/rpc.js";
import { checkPolicyUrl } from "../../http/outbound/allow.js";
import type { Resolver } from "../../http/outbound/resolve.js";
import { EdgegymError } from "../../protocol/index.js";
import type { ProxyConfig } from "./config.js";

function invalid(message: string): never {
  throw new EdgegymError(400, "invalid_policy_model", message);
}

/** Without a resolver a caller's host name cannot be checked, so it is never connected to. */
const noResolver: Resolver = () => Promise.reject(new Error("no resolver"));

/**
 * The proxy's configuration for one call. A caller's base URLs replace the pool for that call only: each must pass
 * POLICY_URL_ALLOW and the address policy (again: the gateway checked them too), every connection to them is checked
 * with `resolve` first, the configured API key is not sent to them, and their health stays out of the shared pool state.
 */
export function callConfig(config: ProxyConfig, choice: ModelChoice = {}, resolve: Resolver = noResolver): ProxyConfig {
  const { policy, returnTokenIds } = choice;
  if (!policy && returnTokenIds === undefined) return config;
  const next: ProxyConfig = { ...config };
  if (returnTokenIds !== undefined) next.returnTokenIds = returnTokenIds;
  if (policy?.model !== undefined) {
    if (policy.model.trim() === "") invalid("the policy model name is empty");
    next.model = policy.model;
  }
  if (policy?.baseUrls?.length) {
    if (policy.model === undefined) invalid("a policy base URL needs the model name it serves");
    const urls = [...new Set(policy.baseUrls.map((url) => url.trim().replace(/\/+$/, "")))];
    for (const url of urls) if (!/^https?:\/\/[^/]/.test(url)) invalid(`the policy base URL "${url}" is not an http(s) URL`);
    for (const url of urls) checkPolicyUrl(config.policyAllow, url);
    next.upstreams = urls;
    delete next.apiKey;
    next.isolated = true;
    next.outbound = { rules: config.policyAllow, resolve };
  }
  return next;
}
