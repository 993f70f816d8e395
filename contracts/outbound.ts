// POLICY_URL_ALLOW: the hosts a caller-chosen policy URL may name (`host[:port]`, `*.domain`, `*`), parsed with clear errors.
import { z } from "zod";

/** The variable's name, for messages that tell an operator what to set. */
export const POLICY_URL_ALLOW = "POLICY_URL_ALLOW";

/** One entry: an exact host (a name or an IP literal, as a URL holds it), `*.suffix`, or `*` (any host the address policy lets through). */
export type AllowEntry = { kind: "exact"; host: string } | { kind: "suffix"; suffix: string } | { kind: "any" };
export type AllowRule = AllowEntry & { port?: number };

/** A host as a URL holds it: lower case, IPv4 in dotted form, IPv6 in brackets, no trailing dot. */
function canonicalHost(host: string): string | undefined {
  try {
    const url = new URL(`http://${host}/`);
    if (url.username || url.password || url.pathname !== "/" || url.port || url.search || url.hash) return undefined;
    return url.hostname.replace(/\.$/, "");
  } catch {
    return undefined;
  }
}

const LITERAL = /^(\d+\.\d+\.\d+\.\d+|\[.*\])$/;

/** `host`, `host:port`, `[v6]:port`, `*.example.com:443`, `*`: the rule, or why not. */
export function parseAllowEntry(text: string): AllowRule | string {
  const match = /^(\[[^\]]*\]|[^:]*|[^[\]]*:[^[\]]*:[^[\]]*)(?::(\d{1,5}))?$/.exec(text);
  if (!match) return "must be host[:port] (IPv6 in brackets)";
  const [, hostText = "", portText] = match;
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (port < 1 || port > 65_535)) return "has a port outside 1-65535";
  const withPort = (entry: AllowEntry): AllowRule => (port === undefined ? entry : { ...entry, port });
  if (hostText === "*") return withPort({ kind: "any" });
  if (hostText.startsWith("*.")) {
    const rest = canonicalHost(hostText.slice(2));
    if (!rest || rest.includes("*") || LITERAL.test(rest)) return "a wildcard must be *.<domain>";
    return withPort({ kind: "suffix", suffix: `.${rest}` });
  }
  const bare = hostText.includes(":") && !hostText.startsWith("[") ? `[${hostText}]` : hostText;
  const host = canonicalHost(bare);
  if (!host || host.includes("*")) return "must be host[:port] (a name, an IP address, or *.<domain>)";
  return withPort({ kind: "exact", host });
}

/** The variable: comma-separated entries; unset or empty allows no caller-chosen URL at all. */
export const PolicyUrlAllow = z.preprocess(
  (value) => (typeof value === "string" ? value : ""),
  z.string().transform((value, ctx) => {
    const rules: AllowRule[] = [];
    value
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean)
      .forEach((entry, i) => {
        const rule = parseAllowEntry(entry);
        if (typeof rule === "string") ctx.issues.push({ code: "custom", message: `entry ${i + 1} ("${entry}") ${rule}`, input: value });
        else rules.push(rule);
      });
    return rules;
  }),
);
export type PolicyUrlAllow = z.output<typeof PolicyUrlAllow>;
