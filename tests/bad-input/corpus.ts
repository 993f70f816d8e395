// The bad-input corpus: malformed requests to every public route, each of which must get a 4xx in the error envelope.
// Run by tests/bad-input/corpus.test.ts against the local emulation, and by run.ts against any gateway (with its token).
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { bodyCases } from "./cases-bodies.js";
import { pathCases } from "./cases-paths.js";
import { routeCases } from "./cases-routes.js";
import type { BadInput, CorpusTargets } from "./types.js";

export type { BadInput, CorpusTargets };

export function corpus(targets: CorpusTargets): BadInput[] {
  const cases = [...bodyCases(targets), ...routeCases(targets), ...pathCases(targets)];
  const names = new Set<string>();
  for (const c of cases) {
    if (names.has(c.name)) throw new Error(`two corpus cases are named "${c.name}"`);
    names.add(c.name);
  }
  return cases;
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
  ms: number;
}

/** Sends one case over a fresh connection with Node's own client (a path is sent byte for byte, a method as named). */
export function send(base: string, input: BadInput, token: string | undefined, timeoutMs = 60_000): Promise<Answer> {
  const url = new URL(base);
  const started = Date.now();
  const body = input.body === undefined ? undefined : typeof input.body === "string" ? Buffer.from(input.body, "utf8") : Buffer.from(input.body);
  const headers: Record<string, string> = {
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(body ? { "content-length": String(body.byteLength) } : {}),
    ...input.headers,
  };
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: input.path, method: input.method, headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers["content-type"] ?? ""),
          text: Buffer.concat(chunks).toString("utf8"),
          ms: Date.now() - started,
        }),
      );
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on("error", reject);
    if (body) req.write(body);
    req.end();
  });
}

/** What is wrong with an answer to a bad input, or null when it is what the corpus asks for. */
export function verdict(input: BadInput, answer: Answer): string | null {
  const expected = input.status === undefined ? "a 4xx" : String(input.status);
  const statusOk = input.status === undefined ? answer.status >= 400 && answer.status < 500 : answer.status === input.status;
  if (!statusOk) return `expected ${expected}, got ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (!answer.contentType.includes("application/json")) return `not JSON (${answer.contentType}): ${answer.text.slice(0, 300)}`;
  let envelope: { error?: { code?: unknown; message?: unknown } };
  try {
    envelope = JSON.parse(answer.text) as typeof envelope;
  } catch {
    return `not the error envelope: ${answer.text.slice(0, 300)}`;
  }
  const { code, message } = envelope.error ?? {};
  if (typeof code !== "string" || typeof message !== "string" || message.length === 0) return `not the error envelope: ${answer.text.slice(0, 300)}`;
  if (input.code !== undefined && code !== input.code) return `expected code ${input.code}, got ${code}: ${message}`;
  return null;
}

/** Runs every case, a few at a time; returns each case's problem (empty when all passed). */
export async function runCorpus(
  base: string,
  cases: BadInput[],
  options: { token?: string; concurrency?: number; timeoutMs?: number } = {},
): Promise<{ problems: string[]; slowestMs: number }> {
  const problems: string[] = [];
  let slowestMs = 0;
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const input = cases[next++]!;
      try {
        const answer = await send(base, input, options.token, options.timeoutMs);
        slowestMs = Math.max(slowestMs, answer.ms);
        const problem = verdict(input, answer);
        if (problem) problems.push(`${input.name} (${input.method} ${input.path.slice(0, 120)}): ${problem}`);
      } catch (error) {
        problems.push(`${input.name} (${input.method} ${input.path.slice(0, 120)}): ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  return { problems, slowestMs };
}
