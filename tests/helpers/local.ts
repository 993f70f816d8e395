// Starts the real local emulation (workerd through Miniflare, plus the simulator) for a test file, and talks to its
// gateway with the run's dev token (every route but /health needs one).
import { startLocal, type Local, type LocalOptions } from "../../local/emulation.js";

/** The dev token of each running emulation, by its gateway's origin. */
const tokens = new Map<string, string>();

export async function startTestLocal(options: LocalOptions = {}): Promise<Local & { token?: string }> {
  // Worker logs stay quiet in tests unless EDGEGYM_TEST_LOGS asks for them.
  const logLevel = process.env.EDGEGYM_TEST_LOGS ? "debug" : "silent";
  const local = await startLocal({ port: 0, persist: false, logLevel, ...options });
  const origin = new URL(local.url).origin;
  if (local.token) tokens.set(origin, local.token);
  const stop = local.stop.bind(local);
  return Object.assign(local, {
    async stop() {
      tokens.delete(origin);
      await stop();
    },
  });
}

/** Talks to an emulation a test started another way (a child process) with this token, until `forgetToken`. */
export function rememberToken(url: string, token: string): void {
  tokens.set(new URL(url).origin, token);
}

export function forgetToken(url: string): void {
  tokens.delete(new URL(url).origin);
}

/** The dev token of the emulation at `url`, if a test started one there with startTestLocal (and no API_TOKENS). */
export function knownTokenFor(url: string): string | undefined {
  try {
    return tokens.get(new URL(url).origin);
  } catch {
    return undefined; // not a URL (a flag's value the command will refuse itself)
  }
}

/** The dev token of the emulation at `url`, for a test that builds its own headers. */
export function tokenFor(url: string): string {
  const token = knownTokenFor(url);
  if (!token) throw new Error(`no dev token for ${url}: was it started with startTestLocal and no API_TOKENS?`);
  return token;
}

/** fetch, with the emulation's dev token added when the URL is one of ours and the request brings no Authorization. */
export function gatewayFetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
  const token = tokens.get(new URL(input).origin);
  const headers = new Headers(init.headers);
  if (token && !headers.has("authorization")) headers.set("authorization", `Bearer ${token}`);
  return fetch(input, { ...init, headers });
}

export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  // Tests read arbitrary JSON answers field by field; typing each one would say nothing the assertions do not.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await gatewayFetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the test sees the text.
  }
  return { status: response.status, body: parsed, headers: response.headers };
}
