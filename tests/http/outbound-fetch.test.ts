// outboundFetch and the resolvers (http/outbound/fetch.ts, resolve.ts, local/resolver.ts): names resolved and every address
// checked before connecting, redirects checked hop by hop; only loopback listeners here, counting what reaches them.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PolicyUrlAllow } from "../../contracts/outbound.js";
import { type OutboundPolicy, outboundFetch } from "../../http/outbound/fetch.js";
import { bindingResolver, DOH_URL, dohResolver, type Resolver } from "../../http/outbound/resolve.js";
import { osResolver, resolveRequest } from "../../local/resolver.js";
import { EdgegymError } from "../../protocol/index.js";

interface Listener {
  port: number;
  connections: number;
  requests: { method: string; url: string; body: string }[];
  server: Server;
}

/** A loopback server that counts connections and answers with `answer(path)`: [status, headers]. */
async function listen(answer: (path: string) => [number, Record<string, string>?, string?]): Promise<Listener> {
  const listener: Listener = { port: 0, connections: 0, requests: [], server: createServer() };
  listener.server.on("connection", () => listener.connections++);
  listener.server.on("request", (request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      listener.requests.push({ method: request.method ?? "", url: request.url ?? "", body });
      const [status, headers = {}, text = "{}"] = answer(request.url ?? "/");
      response.writeHead(status, headers).end(text);
    });
  });
  await new Promise<void>((resolve) => listener.server.listen(0, "127.0.0.1", resolve));
  listener.port = (listener.server.address() as AddressInfo).port;
  return listener;
}

let target: Listener;
let redirector: Listener;

beforeAll(async () => {
  target = await listen(() => [200, { "content-type": "application/json" }, '{"ok":true}']);
  redirector = await listen((path) => {
    const to = new URL(path, "http://x").searchParams.get("to") ?? "/";
    const status = Number(new URL(path, "http://x").searchParams.get("status") ?? 307);
    return [status, { location: to }, ""];
  });
});

afterAll(async () => {
  for (const listener of [target, redirector]) await new Promise((resolve) => listener.server.close(resolve));
});

const none: Resolver = async () => [];
const policy = (allow: string, resolve: Resolver = none): OutboundPolicy => ({ rules: PolicyUrlAllow.parse(allow), resolve });

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "connected";
  } catch (error) {
    if (error instanceof EdgegymError) return `${error.status} ${error.code}: ${error.message}`;
    throw error;
  }
}

describe("outboundFetch", () => {
  it("connects to an allowed literal, and follows a redirect to an allowed one (307 keeps the POST, 303 becomes a GET)", async () => {
    const allow = policy(`127.0.0.1:${redirector.port},127.0.0.1:${target.port}`);
    const before = target.requests.length;
    const to = encodeURIComponent(`http://127.0.0.1:${target.port}/v1/chat`);
    const kept = await outboundFetch(allow, `http://127.0.0.1:${redirector.port}/v1?to=${to}`, { method: "POST", body: "{}" }, "upstream #0");
    expect(kept.status).toBe(200);
    const seeOther = await outboundFetch(allow, `http://127.0.0.1:${redirector.port}/v1?status=303&to=${to}`, { method: "POST", body: "{}" }, "upstream #0");
    expect(seeOther.status).toBe(200);
    expect(target.requests.slice(before).map((r) => [r.method, r.url, r.body])).toEqual([
      ["POST", "/v1/chat", "{}"],
      ["GET", "/v1/chat", ""],
    ]);
  });

  it("refuses a redirect to a loopback address the allow-list does not name: the target sees no connection", async () => {
    const allow = policy(`127.0.0.1:${redirector.port}`);
    const before = target.connections;
    for (const location of [`http://127.0.0.1:${target.port}/v1`, `http://0x7f000001:${target.port}/v1`, `http://localhost:${target.port}/v1`]) {
      const message = await refusal(
        outboundFetch(allow, `http://127.0.0.1:${redirector.port}/v1?to=${encodeURIComponent(location)}`, { method: "POST" }, "upstream #0"),
      );
      expect(message).toBe("403 policy_url_not_allowed: upstream #0 redirected to a URL that is not allowed (POLICY_URL_ALLOW, address policy)");
    }
    expect(target.connections).toBe(before);
  });

  it("refuses a redirect to metadata, and a chain longer than the limit", async () => {
    const allow = policy(`127.0.0.1:${redirector.port},*`);
    const metadata = await refusal(
      outboundFetch(allow, `http://127.0.0.1:${redirector.port}/?to=${encodeURIComponent("http://169.254.169.254/latest/meta-data")}`, {}, "upstream #0"),
    );
    expect(metadata).toMatch(/^403 policy_url_not_allowed: upstream #0 redirected to a URL that is not allowed/);
    const self = `http://127.0.0.1:${redirector.port}/loop`;
    const loop = await refusal(outboundFetch({ ...allow, maxRedirects: 2 }, `${self}?to=${encodeURIComponent(self)}`, {}, "upstream #0"));
    expect(loop).toBe("403 policy_url_not_allowed: upstream #0 redirected more than 2 times");
  });

  it("resolves a name before connecting: any address that is not public (and not named exactly) refuses it whole", async () => {
    const resolveTo =
      (...addresses: string[]): Resolver =>
      async () =>
        addresses;
    const url = `http://vllm.test:${target.port}/v1`;
    const before = target.connections;
    expect(await refusal(outboundFetch(policy("*.test", resolveTo("127.0.0.1")), url, {}, "upstream #1"))).toBe(
      "403 policy_url_not_allowed: upstream #1 resolves to a loopback address, not allowed (only a POLICY_URL_ALLOW entry naming the exact IP allows it)",
    );
    expect(await refusal(outboundFetch(policy("*.test", resolveTo("8.8.8.8", "::ffff:a9fe:a9fe")), url, {}, "upstream #1"))).toMatch(
      /resolves to a link-local \(cloud metadata\) address/,
    );
    expect(await refusal(outboundFetch(policy("*.test", resolveTo()), url, {}, "upstream #1"))).toMatch(/does not resolve to any address/);
    const broken: Resolver = () => Promise.reject(new TypeError("timed out"));
    expect(await refusal(outboundFetch(policy("*.test", broken), url, {}, "upstream #1"))).toMatch(/could not be resolved to check its addresses/);
    expect(target.connections).toBe(before);
    // The operator's explicit choice: the name and that exact loopback IP on this port (the OS resolves it for the connection).
    const named = policy(`localhost:${target.port},127.0.0.1:${target.port}`, osResolver);
    const answer = await outboundFetch(named, `http://localhost:${target.port}/v1`, {}, "upstream #1");
    expect(answer.status).toBe(200);
    expect(target.connections).toBe(before + 1);
  });
});

describe("resolvers", () => {
  it("DNS over HTTPS: A and AAAA asked with the JSON API, CNAMEs skipped, NXDOMAIN is no address, other failures throw", async () => {
    const asked: string[] = [];
    const answers: Record<string, unknown> = {
      A: {
        Status: 0,
        Answer: [
          { type: 5, data: "alias.example." },
          { type: 1, data: "93.184.216.34" },
        ],
      },
      AAAA: { Status: 0, Answer: [{ type: 28, data: "2606:2800:220:1::" }] },
    };
    const fake = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      asked.push(`${url.origin}${url.pathname} ${url.searchParams.get("name")} ${url.searchParams.get("type")} ${new Headers(init?.headers).get("accept")}`);
      expect(init?.signal).toBeInstanceOf(AbortSignal);
      return Response.json(answers[url.searchParams.get("type")!]);
    }) as typeof fetch;
    expect(await dohResolver(fake)("vllm.example.com")).toEqual(["93.184.216.34", "2606:2800:220:1::"]);
    expect(asked).toEqual([`${DOH_URL} vllm.example.com A application/dns-json`, `${DOH_URL} vllm.example.com AAAA application/dns-json`]);
    answers.A = answers.AAAA = { Status: 3 };
    expect(await dohResolver(fake)("nowhere.example")).toEqual([]);
    answers.A = { Status: 2 };
    await expect(dohResolver(fake)("broken.example")).rejects.toThrow(/status 2/);
  });

  it("the local binding: the OS's addresses for localhost, through resolveRequest and bindingResolver", async () => {
    expect(await osResolver("localhost")).toContain("127.0.0.1");
    expect(await osResolver("does-not-exist.invalid")).toEqual([]);
    const binding = {
      fetch: async (input: string) => {
        const { status, body } = await resolveRequest(input);
        return Response.json(body, { status });
      },
    };
    expect(await bindingResolver(binding)("localhost")).toContain("127.0.0.1");
    expect(await resolveRequest("http://resolver/")).toEqual({ status: 400, body: { error: "name is required" } });
  });
});
