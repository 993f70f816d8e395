// The remote environments' configuration (issue 24): a file's entries checked whole, defaults filled in, errors naming
// the file and the field (contracts/remote.ts RemoteEnvironmentConfig is the shape this produces).
import { z } from "zod";
import type { RemoteEnvironmentConfig, RemoteEnvironmentDeployment } from "../../../contracts/remote.js";
import { RESERVED_ROUTES } from "../../../contracts/names.js";
import { FunctionTool } from "../../../protocol/index.js";

const name = z.string().regex(/^[a-z][a-z0-9_]*$/, "must be lower_snake_case (it names the binding ENV_<NAME> and the routes)");
/** A secret's name: an environment variable / Worker secret, never its value. */
const secretName = z.string().regex(/^[A-Z][A-Z0-9_]*$/, "must name a secret (UPPER_SNAKE_CASE), not hold its value");
const baseUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).transform((url) => url.replace(/\/+$/, ""));

const Auth = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("none") }).strict(),
  z.object({ kind: z.literal("bearer"), secret: secretName }).strict(),
  z.object({ kind: z.literal("headers"), secrets: z.record(z.string().regex(/^[A-Za-z0-9-]+$/, "must be a header name"), secretName) }).strict(),
]);

const Tools = z.discriminatedUnion("from", [
  z.object({ from: z.literal("row") }).strict(),
  z.object({ from: z.literal("config"), tools: z.array(FunctionTool).min(1) }).strict(),
]);

const headerName = z.string().regex(/^[A-Za-z0-9-]+$/, "must be a header name");

/** An MCP server whose tools join the remote server's (contracts/mcp.ts McpToolSourceConfig; Streamable HTTP only). */
const McpServer = z
  .object({
    name,
    transport: z
      .object({
        kind: z.literal("http", { error: 'must be "http": a remote environment reaches MCP servers over Streamable HTTP (stdio runs only in process)' }),
        url: baseUrl.optional(),
        urlSecret: secretName.optional(),
        headerSecrets: z.record(headerName, secretName).optional(),
      })
      .strict()
      .refine((transport) => transport.url !== undefined || transport.urlSecret !== undefined, { error: "needs url, or urlSecret naming where it is" })
      .transform(({ url, ...rest }) => ({ ...rest, url: url ?? "" })),
    tools: z.array(z.string().min(1)).min(1).optional(),
    callTimeoutMs: z.number().int().min(1).max(600_000).default(30_000),
    sessions: z.enum(["per_session", "shared"]).default("shared"),
  })
  .strict();

/** One entry as written: everything but the name and the URLs has a default. */
export const RemoteEntry = z
  .object({
    name,
    description: z.string().optional(),
    baseUrls: z.array(baseUrl).min(1, "needs at least one URL"),
    auth: Auth.default({ kind: "none" }),
    timeouts: z
      .object({ connectMs: z.number().int().min(1).max(60_000).default(2_000), callMs: z.number().int().min(1).max(600_000).default(60_000) })
      .strict()
      .default({ connectMs: 2_000, callMs: 60_000 }),
    concurrency: z.number().int().min(1).max(10_000).default(64),
    stateful: z.boolean().default(true),
    tools: Tools.default({ from: "row" }),
    mcpServers: z.array(McpServer).optional(),
    reverify: z.enum(["stateless", "unsupported", "unknown"]).optional(),
    aggregateMetrics: z.boolean().default(true),
    maxResponseBytes: z
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024)
      .default(4 * 1024 * 1024),
    maxCookieBytes: z
      .number()
      .int()
      .min(64)
      .max(64 * 1024)
      .default(8 * 1024),
  })
  .strict()
  .superRefine((entry, ctx) => {
    const servers = new Set<string>();
    entry.mcpServers?.forEach((server, index) => {
      if (servers.has(server.name)) ctx.addIssue({ code: "custom", path: ["mcpServers", index, "name"], message: `"${server.name}" is configured twice` });
      servers.add(server.name);
    });
    if (entry.tools.from !== "config") return;
    entry.tools.tools.forEach((tool, index) => {
      if (RESERVED_ROUTES.has(tool.name))
        ctx.addIssue({ code: "custom", path: ["tools", "tools", index, "name"], message: `"${tool.name}" is a route, not a tool` });
    });
  }) satisfies z.ZodType<RemoteEnvironmentConfig, unknown>;

/** The file: `{ "remotes": [ … ] }` (edgegym.remote.json). */
export const RemoteFile = z.object({ remotes: z.array(RemoteEntry) }).strict();

/** A configuration error: every problem as `<origin>: <field path>: <message>`. */
export class RemoteConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "RemoteConfigError";
  }
}

function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) out += typeof key === "number" ? `[${key}]` : `${out ? "." : ""}${String(key)}`;
  return out || "(file)";
}

/**
 * The entries of a file's text, checked: bad JSON, a bad field, a duplicated name or a name taken by a native environment
 * is a RemoteConfigError naming `origin` (the file) and the field.
 */
export function parseRemoteFile(text: string, origin: string, native: readonly string[] = []): RemoteEnvironmentDeployment[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RemoteConfigError([`${origin}: not JSON: ${error instanceof Error ? error.message : String(error)}`]);
  }
  const parsed = RemoteFile.safeParse(json);
  if (!parsed.success) throw new RemoteConfigError(parsed.error.issues.map((issue) => `${origin}: ${fieldPath(issue.path)}: ${issue.message}`));
  const problems: string[] = [];
  const seen = new Set<string>();
  parsed.data.remotes.forEach((entry, index) => {
    if (seen.has(entry.name)) problems.push(`${origin}: remotes[${index}].name: "${entry.name}" is configured twice`);
    if (native.includes(entry.name)) problems.push(`${origin}: remotes[${index}].name: "${entry.name}" is a native environment's name`);
    seen.add(entry.name);
  });
  if (problems.length) throw new RemoteConfigError(problems);
  return parsed.data.remotes.map((config, index) => ({ config, origin: `${origin}: remotes[${index}]` }));
}

/** A secret an entry names, and the field that names it; `optional`: a URL binding with `url` to fall back on. */
export interface NamedSecret {
  secret: string;
  field: string;
  optional: boolean;
}

/** Every secret an entry names: the server's auth, then each MCP server's URL and headers. */
export function secretFields(config: RemoteEnvironmentConfig): NamedSecret[] {
  const { auth } = config;
  const named: NamedSecret[] = [];
  if (auth.kind === "bearer") named.push({ secret: auth.secret, field: "auth.secret", optional: false });
  if (auth.kind === "headers")
    for (const [header, secret] of Object.entries(auth.secrets)) named.push({ secret, field: `auth.secrets.${header}`, optional: false });
  (config.mcpServers ?? []).forEach(({ transport }, index) => {
    if (transport.kind !== "http") return;
    const at = `mcpServers[${index}].transport`;
    if (transport.urlSecret) named.push({ secret: transport.urlSecret, field: `${at}.urlSecret`, optional: transport.url !== "" });
    for (const [header, secret] of Object.entries(transport.headerSecrets ?? {}))
      named.push({ secret, field: `${at}.headerSecrets.${header}`, optional: false });
  });
  return named;
}

/** The secrets an entry needs, by name (to bind them to its Worker or read them from the environment). */
export function secretNames(config: RemoteEnvironmentConfig): string[] {
  return [...new Set(secretFields(config).map((named) => named.secret))];
}
