// A caller-chosen policy URL checked against POLICY_URL_ALLOW (contracts/outbound.ts) and the address policy, before any connection.
import { type AllowRule, POLICY_URL_ALLOW } from "../../contracts/outbound.js";
import { EdgegymError } from "../../protocol/index.js";
import { formatIp, type IpAddress, nonPublic, parseIp, reservedName } from "./address.js";

export { type AllowRule, POLICY_URL_ALLOW };

/** The port a connection to the URL uses. */
export function effectivePort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/** The first rule that lets `host` (canonical, as a URL holds it) on `port` through, if any. */
export function matchingRule(rules: readonly AllowRule[], host: string, port: number): AllowRule | undefined {
  const name = host.replace(/\.$/, "");
  return rules.find((rule) => {
    if (rule.port !== undefined && rule.port !== port) return false;
    if (rule.kind === "any") return true;
    if (rule.kind === "suffix") return name.endsWith(rule.suffix) && parseIp(name) === undefined;
    return rule.host === name;
  });
}

/** An address is let through when it is public, or when a rule names that exact IP (the operator's explicit choice) for this port. */
export function addressRefusal(rules: readonly AllowRule[], ip: IpAddress, port: number): string | undefined {
  const what = nonPublic(ip);
  if (!what) return undefined;
  const text = formatIp(ip);
  const named = rules.some((rule) => {
    if (rule.kind !== "exact" || (rule.port !== undefined && rule.port !== port)) return false;
    const literal = parseIp(rule.host);
    return literal !== undefined && formatIp(literal) === text;
  });
  return named ? undefined : what;
}

/** The refusal every check answers: 403 naming the host (never the rest of the URL) and the variable that decides. */
export function notAllowed(field: string, host: string, why: string): EdgegymError {
  return new EdgegymError(403, "policy_url_not_allowed", `${field}: the host "${host}" ${why}`, [{ path: [field], message: `the host "${host}" ${why}` }]);
}

/**
 * A caller-chosen URL, checked without resolving it: http(s), its host:port matched by POLICY_URL_ALLOW, an IP literal
 * public or named exactly, a name not reserved (cloud metadata, *.localhost…). Names are resolved and checked at connect time.
 */
export function checkPolicyUrl(rules: readonly AllowRule[], raw: string, field = "policy_base_url"): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new EdgegymError(400, "invalid_request", `${field}: not a URL`, [{ path: [field], message: "not a URL" }]);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new EdgegymError(400, "invalid_request", `${field}: must be an http(s) URL`, [{ path: [field], message: "must be an http(s) URL" }]);
  }
  const port = effectivePort(url);
  const host = url.hostname.replace(/\.$/, "");
  const shown = url.port ? `${host}:${url.port}` : host;
  if (!matchingRule(rules, host, port)) {
    const none = rules.length === 0 ? "no caller-chosen URL is allowed on this deployment" : "it is not in the list";
    throw notAllowed(field, shown, `is not allowed (${none}): the operator adds host[:port] to ${POLICY_URL_ALLOW}`);
  }
  const ip = parseIp(host);
  const refused = ip ? addressRefusal(rules, ip, port) : undefined;
  if (refused) throw notAllowed(field, shown, `is ${articled(refused)} address: only a ${POLICY_URL_ALLOW} entry naming this exact IP allows it`);
  const reserved = ip ? undefined : reservedName(host);
  if (reserved) throw notAllowed(field, shown, `is ${reserved} name, never a public model server`);
  return url;
}

/** "a loopback", "an unspecified". */
export function articled(what: string): string {
  return /^[aeiou]/i.test(what) ? `an ${what}` : `a ${what}`;
}
