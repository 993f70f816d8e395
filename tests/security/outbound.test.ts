// The outbound policy in the real emulation (workerd): a caller's policy_base_url in any loopback spelling is refused
// before a connection is made (a counting listener sees none), a name resolving to loopback and a redirect to a host
// not allowed are refused by the model proxy, and an upstream's error body reaches callers, records and logs only as a
// short sanitized reason. Traffic goes to loopback listeners only.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_POLICY_URL_ALLOW, type Local, policyUrlAllowLine } from "../../local/emulation.js";
import { fixtureRows } from "../helpers/fixtures.js";
import { jobLines, waitForJob } from "../helpers/jobs.js";
import { gatewayFetch, postJson, startTestLocal } from "../helpers/local.js";

const ENV = "example_single_tool_call";
const HTML = `<!doctype html><html><body><h1>400 Bad Request</h1>${"<p>nginx internal detail</p>".repeat(400)}</body></html>`;
const HOSTILE = "bad request\u001b[2J\u001b]0;pwned\u0007\r\nforged log line\u202e";

interface Listener {
  server: Server;
  port: number;
  connections: number;
}

/** A loopback listener (IPv4 and IPv6) that counts accepted connections and answers with `handle`. */
interface Answer {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

async function listen(handle: (path: string) => Answer): Promise<Listener> {
  const listener: Listener = { server: createServer(), port: 0, connections: 0 };
  listener.server.on("connection", () => listener.connections++);
  listener.server.on("request", (request, response) => {
    request.resume();
    request.on("end", () => {
      const { status, headers, body } = handle(request.url ?? "/");
      response.writeHead(status, headers).end(body);
    });
  });
  await new Promise<void>((resolve) => listener.server.listen(0, "::", resolve));
  listener.port = (listener.server.address() as AddressInfo).port;
  return listener;
}

/** What the caller's own upstream answers next. */
let mode: "html" | "hostile" | "html503" | "redirect" = "html";
let trap: Listener;
let upstream: Listener;
let local: Local;
let logDir: string;

beforeAll(async () => {
  trap = await listen(() => ({ status: 200, headers: { "content-type": "application/json" }, body: "{}" }));
  upstream = await listen((): Answer => {
    if (mode === "redirect") return { status: 307, headers: { location: `http://127.0.0.1:${trap.port}/v1/chat/completions` }, body: "" };
    if (mode === "hostile") return { status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { message: HOSTILE } }) };
    return { status: mode === "html503" ? 503 : 400, headers: { "content-type": "text/html" }, body: HTML };
  });
  logDir = mkdtempSync(path.join(tmpdir(), "edgegym-outbound-"));
  local = await startTestLocal({
    environments: [ENV],
    logLevel: "debug",
    logs: { dir: logDir },
    vars: {
      // The caller's upstream, exactly; `localhost` on the trap's port by name only (it resolves to loopback: refused).
      gateway: { POLICY_URL_ALLOW: `127.0.0.1:${upstream.port},localhost:${trap.port}` },
      modelProxy: { MODEL_MAX_ATTEMPTS: "2", MODEL_RETRY_BASE_MS: "0", MODEL_RETRY_MAX_MS: "0" },
      agent: { MAX_ATTEMPTS: "1" },
    },
  });
});

afterAll(async () => {
  await local?.stop();
  for (const listener of [trap, upstream]) if (listener) await new Promise((resolve) => listener.server.close(resolve));
});

const row = () => fixtureRows(ENV)[0]!;
const run = (baseUrl: string) =>
  postJson(`${local.url}/run?${new URLSearchParams({ environment: ENV, failures: "error", policy_base_url: baseUrl, policy_model_name: "m" })}`, row());
const job = (baseUrl: string) => postJson(`${local.url}/v1/jobs`, { environment: ENV, rows: [row()], policy_base_url: baseUrl, policy_model_name: "m" });

async function jobCount(): Promise<number> {
  const body = (await (await gatewayFetch(`${local.url}/v1/jobs?limit=1000`)).json()) as { data: unknown[] };
  return body.data.length;
}

describe("the allow-list of a local run", () => {
  it("is the one set, else loopback, and the line a local run prints says which", () => {
    expect(local.policyUrlAllow).toBe(`127.0.0.1:${upstream.port},localhost:${trap.port}`);
    expect(LOCAL_POLICY_URL_ALLOW).toBe("127.0.0.1,localhost,[::1]");
    expect(policyUrlAllowLine(LOCAL_POLICY_URL_ALLOW)).toBe(
      "policy_base_url hosts allowed (POLICY_URL_ALLOW): 127.0.0.1,localhost,[::1] (the local default: loopback)\n",
    );
    expect(policyUrlAllowLine("")).toBe("policy_base_url hosts allowed (POLICY_URL_ALLOW): none\n");
  });
});

describe("a caller's policy_base_url", () => {
  it("in 13 loopback spellings is refused on /run and POST /v1/jobs with 403 naming only the host; nothing queued, no connection", async () => {
    const p = trap.port;
    const spellings = [
      `http://127.0.0.1:${p}/v1`,
      `http://0x7f000001:${p}/v1`,
      `http://2130706433:${p}/v1`,
      `http://0177.0.0.1:${p}/v1`,
      `http://127.1:${p}/v1`,
      `http://127.0.0.1.:${p}/v1`,
      `http://%31%32%37.0.0.1:${p}/v1`,
      `http://[::1]:${p}/v1`,
      `http://[::ffff:127.0.0.1]:${p}/v1`,
      `http://[::ffff:7f00:1]:${p}/v1`,
      `http://[0:0:0:0:0:ffff:7f00:1]:${p}/v1`,
      `http://0.0.0.0:${p}/v1`,
      `http://x.localhost:${p}/v1?secret=s3cr3t`,
    ];
    const jobsBefore = await jobCount();
    for (const url of spellings) {
      for (const answer of [await run(url), await job(url)]) {
        expect(answer.status, url).toBe(403);
        expect(answer.body.error.code, url).toBe("policy_url_not_allowed");
        expect(answer.body.error.message, url).toMatch(/^policy_base_url: the host "[^"]+" is not allowed .*POLICY_URL_ALLOW/);
        expect(answer.body.error.message, url).not.toContain("/v1");
        expect(answer.body.error.message, url).not.toContain("s3cr3t");
      }
    }
    expect(await jobCount()).toBe(jobsBefore);
    expect(trap.connections).toBe(0);
  });

  it("naming a host that resolves to loopback (localhost, allowed by name) is refused by the model proxy before connecting", async () => {
    const answer = await run(`http://localhost:${trap.port}/v1`);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain("the model answered 403: the policy model (upstream #0) resolves to a loopback address, not allowed");
    expect(answer.body.error.message).not.toContain(String(trap.port));
    expect(trap.connections).toBe(0);
  });

  it("an allowed upstream that redirects to a loopback address not allowed: refused, the target never connected to", async () => {
    mode = "redirect";
    const before = upstream.connections;
    const answer = await run(`http://127.0.0.1:${upstream.port}/v1`);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain("the policy model (upstream #0) redirected to a URL that is not allowed");
    expect(upstream.connections).toBeGreaterThan(before);
    expect(trap.connections).toBe(0);
  });
});

describe("an upstream's error body", () => {
  it("a 400 with 10 KB of HTML: the caller and the job's failure record get the status, the class and a short reason", async () => {
    mode = "html";
    const url = `http://127.0.0.1:${upstream.port}/v1`;
    const answer = await run(url);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("model_error");
    expect(answer.body.error.message).toBe(
      `the model answered 400: the model (upstream #0) rejected the request (HTTP 400): a ${HTML.length}-character body that is not a JSON error`,
    );
    const created = await job(url);
    expect(created.status).toBe(201);
    await waitForJob(local.url, created.body.id);
    const [failure] = await jobLines(local.url, created.body.id, "failures");
    expect(failure).toMatchObject({ failure_class: "model_error", failure_code: "model_error" });
    expect(failure!.message).toContain(`rejected the request (HTTP 400): a ${HTML.length}-character body that is not a JSON error`);
    expect(JSON.stringify(failure)).not.toContain("nginx");
  });

  it("an error message with control characters and terminal escapes: printable, on one line", async () => {
    mode = "hostile";
    const answer = await run(`http://127.0.0.1:${upstream.port}/v1`);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain("rejected the request (HTTP 400): bad request [2J ]0;pwned forged log line");
    expect(answer.body.error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
  });

  it("a 503 with HTML, retried then failed: the reason is short, and no log line names the upstream's address or its body", async () => {
    mode = "html503";
    const answer = await run(`http://127.0.0.1:${upstream.port}/v1`);
    expect(answer.status).toBe(502);
    expect(answer.body.error.message).toContain(`failed after 2 attempts; last: HTTP 503: a ${HTML.length}-character body that is not a JSON error`);
    // Worker log lines reach the session file as workerd writes them.
    let logs = "";
    for (let i = 0; i < 50 && !logs.includes("model attempt failed"); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      logs = readdirSync(logDir)
        .map((file) => readFileSync(path.join(logDir, file), "utf8"))
        .join("\n");
    }
    expect(logs).toContain('"upstream":"upstream #0"');
    expect(logs).not.toContain(`:${upstream.port}`);
    expect(logs).not.toContain(`:${trap.port}`);
    expect(logs).not.toContain("nginx");
    expect(logs).not.toContain("\\u001b");
  });
});
