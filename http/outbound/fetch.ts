// fetch for caller-chosen URLs: every host checked (allow-list, resolved addresses) before each connection, redirects followed only when they pass.
import { EdgegymError } from "../../protocol/index.js";
import { addressRefusal, type AllowRule, articled, checkPolicyUrl, effectivePort, POLICY_URL_ALLOW } from "./allow.js";
import { parseIp } from "./address.js";
import type { Resolver } from "./resolve.js";

export interface OutboundPolicy {
  rules: readonly AllowRule[];
  resolve: Resolver;
  /** Redirects followed at most (each checked like the first URL); default 3. */
  maxRedirects?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function refused(subject: string, why: string): EdgegymError {
  return new EdgegymError(403, "policy_url_not_allowed", `${subject} ${why}`);
}

/**
 * Checks one URL before connecting: the allow-list and literal check, then every address a name resolves to (a name
 * whose addresses include one that is not public, unless named exactly in the allow-list, is refused whole).
 * `subject` names the upstream in the message ("policy upstream #0"): neither the URL nor a resolved address is echoed.
 */
export async function checkBeforeConnect(policy: OutboundPolicy, raw: string, subject: string): Promise<URL> {
  let url: URL;
  try {
    url = checkPolicyUrl(policy.rules, raw);
  } catch (error) {
    if (error instanceof EdgegymError) throw refused(subject, `is not allowed (${POLICY_URL_ALLOW}, address policy)`);
    throw error;
  }
  const host = url.hostname.replace(/\.$/, "");
  if (parseIp(host)) return url;
  let addresses: string[];
  try {
    addresses = await policy.resolve(host);
  } catch (error) {
    throw refused(subject, `could not be resolved to check its addresses (${error instanceof Error ? error.name : "error"})`);
  }
  if (addresses.length === 0) throw refused(subject, "does not resolve to any address");
  const port = effectivePort(url);
  for (const address of addresses) {
    const ip = parseIp(address);
    if (!ip) throw refused(subject, "resolves to something that is not an IP address");
    const why = addressRefusal(policy.rules, ip, port);
    if (why) throw refused(subject, `resolves to ${articled(why)} address, not allowed (only a ${POLICY_URL_ALLOW} entry naming the exact IP allows it)`);
  }
  return url;
}

/**
 * `fetch` with the policy applied to the URL and to every redirect's Location (`redirect: "manual"`): a 303 (or a 301/302
 * after a POST) continues as a GET without a body, as browsers do; 307/308 repeat the request. Past `maxRedirects`, refused.
 */
export async function outboundFetch(policy: OutboundPolicy, raw: string, init: RequestInit, subject: string): Promise<Response> {
  let current = raw;
  let request: RequestInit = { ...init, redirect: "manual" };
  const hops = policy.maxRedirects ?? 3;
  for (let hop = 0; ; hop++) {
    await checkBeforeConnect(policy, current, hop === 0 ? subject : `${subject} redirected to a URL that`);
    const response = await fetch(current, request);
    const location = response.headers.get("location");
    if (!REDIRECTS.has(response.status) || location === null) return response;
    await response.body?.cancel();
    if (hop >= hops) throw refused(subject, `redirected more than ${hops} times`);
    current = new URL(location, current).toString();
    const method = (request.method ?? "GET").toUpperCase();
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
      const { body: _body, ...rest } = request;
      const headers = new Headers(rest.headers);
      headers.delete("content-type");
      request = { ...rest, method: "GET", headers };
    }
  }
}
