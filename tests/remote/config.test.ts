// The remote environments' file (edgegym.remote.json): defaults filled in, and each bad field named with its file.
import { describe, expect, it } from "vitest";
import { parseRemoteFile, RemoteConfigError, secretNames } from "../../environments/sdk/remote/config.js";

const FILE = "edgegym.remote.json";

function problems(text: string, native: string[] = []): string[] {
  try {
    parseRemoteFile(text, FILE, native);
  } catch (error) {
    expect(error).toBeInstanceOf(RemoteConfigError);
    return (error as RemoteConfigError).problems;
  }
  throw new Error("no error");
}

describe("edgegym.remote.json", () => {
  it("fills in the defaults and strips a trailing slash from the URLs", () => {
    const [deployment] = parseRemoteFile(JSON.stringify({ remotes: [{ name: "my_server", baseUrls: ["http://127.0.0.1:8000/"] }] }), FILE);
    expect(deployment).toEqual({
      origin: "edgegym.remote.json: remotes[0]",
      config: {
        name: "my_server",
        baseUrls: ["http://127.0.0.1:8000"],
        auth: { kind: "none" },
        timeouts: { connectMs: 2000, callMs: 60000 },
        concurrency: 64,
        stateful: true,
        tools: { from: "row" },
        aggregateMetrics: true,
        maxResponseBytes: 4 * 1024 * 1024,
        maxCookieBytes: 8 * 1024,
      },
    });
  });

  it("names the file and the field of each problem", () => {
    const text = JSON.stringify({
      remotes: [
        { name: "Bad-Name", baseUrls: ["ftp://x"], auth: { kind: "bearer", secret: "sk-live-123" }, concurrency: 0 },
        { name: "ok", baseUrls: [], tools: { from: "config", tools: [{ type: "function", name: "verify", parameters: {} }] } },
      ],
    });
    const found = problems(text);
    expect(found).toContain("edgegym.remote.json: remotes[0].name: must be lower_snake_case (it names the binding ENV_<NAME> and the routes)");
    expect(found).toContain("edgegym.remote.json: remotes[0].baseUrls[0]: must be an http(s) URL");
    expect(found).toContain("edgegym.remote.json: remotes[0].auth.secret: must name a secret (UPPER_SNAKE_CASE), not hold its value");
    expect(found.some((p) => p.startsWith("edgegym.remote.json: remotes[0].concurrency: "))).toBe(true);
    expect(found).toContain("edgegym.remote.json: remotes[1].baseUrls: needs at least one URL");
  });

  it("refuses unknown fields, bad JSON, a name twice and a native environment's name", () => {
    expect(problems(JSON.stringify({ remotes: [{ name: "a", baseUrls: ["http://h"], token: "x" }] }))[0]).toMatch(
      /^edgegym\.remote\.json: remotes\[0\]: Unrecognized key/,
    );
    expect(problems("{ remotes: ")[0]).toMatch(/^edgegym\.remote\.json: not JSON: /);
    const twice = JSON.stringify({
      remotes: [
        { name: "a", baseUrls: ["http://h"] },
        { name: "a", baseUrls: ["http://h"] },
      ],
    });
    expect(problems(twice)).toEqual(['edgegym.remote.json: remotes[1].name: "a" is configured twice']);
    expect(problems(JSON.stringify({ remotes: [{ name: "example_multi_step", baseUrls: ["http://h"] }] }), ["example_multi_step"])).toEqual([
      'edgegym.remote.json: remotes[0].name: "example_multi_step" is a native environment\'s name',
    ]);
  });

  it("lists the secrets an entry's auth names", () => {
    const [d] = parseRemoteFile(
      JSON.stringify({ remotes: [{ name: "a", baseUrls: ["http://h"], auth: { kind: "headers", secrets: { "x-api-key": "A_KEY", "x-other": "A_KEY" } } }] }),
      FILE,
    );
    expect(secretNames(d!.config)).toEqual(["A_KEY"]);
  });
  it("takes MCP servers (Streamable HTTP) with defaults, and names each bad field of one", () => {
    const entry = (servers: unknown[]) => JSON.stringify({ remotes: [{ name: "my_server", baseUrls: ["http://127.0.0.1:8000"], mcpServers: servers }] });
    const [deployment] = parseRemoteFile(
      entry([{ name: "tools_mcp", transport: { kind: "http", urlSecret: "TOOLS_URL", headerSecrets: { authorization: "TOOLS_KEY" } } }]),
      FILE,
    );
    expect(deployment!.config.mcpServers).toEqual([
      {
        name: "tools_mcp",
        transport: { kind: "http", url: "", urlSecret: "TOOLS_URL", headerSecrets: { authorization: "TOOLS_KEY" } },
        callTimeoutMs: 30000,
        sessions: "shared",
      },
    ]);
    expect(secretNames(deployment!.config)).toEqual(["TOOLS_URL", "TOOLS_KEY"]);
    expect(
      problems(
        entry([
          { name: "local_mcp", transport: { kind: "stdio", command: ["node", "server.js"] } },
          { name: "nowhere_mcp", transport: { kind: "http" } },
          { name: "nowhere_mcp", transport: { kind: "http", url: "ftp://x" }, sessions: "sometimes" },
        ]),
      ),
    ).toEqual([
      'edgegym.remote.json: remotes[0].mcpServers[0].transport.kind: must be "http": a remote environment reaches MCP servers over Streamable HTTP (stdio runs only in process)',
      'edgegym.remote.json: remotes[0].mcpServers[0].transport: Unrecognized key: "command"',
      "edgegym.remote.json: remotes[0].mcpServers[1].transport: needs url, or urlSecret naming where it is",
      "edgegym.remote.json: remotes[0].mcpServers[2].transport.url: must be an http(s) URL",
      'edgegym.remote.json: remotes[0].mcpServers[2].sessions: Invalid option: expected one of "per_session"|"shared"',
    ]);
  });
});
