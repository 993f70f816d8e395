// Per-tenant quotas, configured beside the tokens: `TENANT_QUOTAS`, `name:quota=value+quota=value` entries (`*`: the default).
import { z } from "zod";
import { configEntries } from "./tokens.js";

const SIZE = /^(\d+)\s*(B|KB|KiB|MB|MiB|GB|GiB|TB|TiB)?$/;
const UNITS: Record<string, number> = { B: 1, KB: 1e3, KiB: 2 ** 10, MB: 1e6, MiB: 2 ** 20, GB: 1e9, GiB: 2 ** 30, TB: 1e12, TiB: 2 ** 40 };

const count = z.coerce.number({ error: "must be a whole number" }).int("must be a whole number").min(0, "must be 0 or more");
const bytes = z.string().transform((text, ctx) => {
  const match = SIZE.exec(text.trim());
  if (!match) {
    ctx.issues.push({ code: "custom", message: "must be a size such as 500MB, 2GiB or 1048576", input: text });
    return z.NEVER;
  }
  return Number(match[1]) * UNITS[match[2] ?? "B"]!;
});

/** One tenant's limits; a quota left out is not limited. */
export const Quota = z.strictObject({
  /** Unfinished jobs of the tenant. */
  jobs: count.optional(),
  /** Rollouts in the tenant's unfinished jobs, the new job's included. */
  rollouts: count.optional(),
  /** Bytes of the tenant's stored uploads (PUT /v1/files). */
  bytes: bytes.optional(),
  /** The tenant's /run calls and job uploads in flight at once. */
  in_flight: count.optional(),
});
export type Quota = z.infer<typeof Quota>;
export type QuotaName = keyof Quota;

/** Quotas by tenant name; `*` applies to a name not listed. */
export type TenantQuotas = Record<string, Quota>;

const NAME = /^(\*|[A-Za-z0-9_.-]{1,64})$/;

/** `team-a:jobs=20+rollouts=200000+bytes=2GiB+in_flight=64,*:jobs=5`; errors name the entry and the field. */
export function parseTenantQuotas(text: string): TenantQuotas {
  const quotas: TenantQuotas = {};
  configEntries(text).forEach(({ part, where }) => {
    const colon = part.indexOf(":");
    const name = colon < 0 ? "" : part.slice(0, colon).trim();
    if (colon < 0 || !NAME.test(name)) throw new Error(`${where} is not name:quota=value+quota=value (a token name or *, e.g. team-a:jobs=20+bytes=2GiB)`);
    if (quotas[name]) throw new Error(`${where} ("${name}"): the name appears twice`);
    const fields: Record<string, string> = {};
    for (const pair of part.slice(colon + 1).split("+")) {
      const [key = "", value, ...rest] = pair.split("=").map((s) => s.trim());
      if (value === undefined || value === "" || rest.length) throw new Error(`${where} ("${name}"): "${pair}" is not quota=value`);
      fields[key] = value;
    }
    const parsed = Quota.safeParse(fields);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.code === "unrecognized_keys" ? issue.keys.join(", ") : String(issue.path[0] ?? "");
      const message = issue.code === "unrecognized_keys" ? `is not a quota (${Quota.keyof().options.join(", ")})` : issue.message;
      throw new Error(`${where} ("${name}"): ${field} ${message}`);
    }
    quotas[name] = parsed.data;
  });
  return quotas;
}

/** `TENANT_QUOTAS` as a config variable: unset or empty means no quota for anyone. */
export const TenantQuotasVar = z.preprocess(
  (value, ctx) => {
    if (typeof value !== "string") return {};
    try {
      return parseTenantQuotas(value);
    } catch (error) {
      ctx.issues.push({ code: "custom", message: error instanceof Error ? error.message : String(error), input: value });
      return z.NEVER;
    }
  },
  z.record(z.string(), z.custom<Quota>()),
);

/** A tenant's quotas: its own entry, else `*`'s, else none. */
export function quotaOf(quotas: TenantQuotas, name: string): Quota {
  return quotas[name] ?? quotas["*"] ?? {};
}
