// An episode's calls to its environment: its own HTTP routes through the service binding, for the caller's token,
// in the session x-session-id names (as /v1/environments/<env>/… reaches them).
import { CALLER_HEADER, SESSION_HEADER } from "../../../contracts/names.js";
import { EdgegymError, type ErrorStatus } from "../../../protocol/index.js";
import type { EpisodeTarget } from "./types.js";

export interface Answer {
  status: number;
  body: unknown;
  sessionId: string | null;
}

export async function post(target: EpisodeTarget, route: string, body: unknown, sessionId?: string): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/json", [CALLER_HEADER]: target.caller };
  if (sessionId) headers[SESSION_HEADER] = sessionId;
  const answer = await target.service.fetch(new Request(`http://internal/${route}`, { method: "POST", headers, body: JSON.stringify(body) }));
  const text = await answer.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: passed on as text.
  }
  return { status: answer.status, body: parsed, sessionId: answer.headers.get(SESSION_HEADER) };
}

/** The environment's error envelope as an error of the gateway's, with its status, code and message. */
export function failed(answer: Answer, what: string): EdgegymError {
  const envelope = answer.body as { error?: { code?: string; message?: string; issues?: [] } } | undefined;
  const status = (answer.status >= 400 && answer.status < 600 ? answer.status : 502) as ErrorStatus;
  const message = envelope?.error?.message ?? `${what} answered ${answer.status}`;
  return new EdgegymError(status, envelope?.error?.code ?? "environment_error", `${what}: ${message}`, envelope?.error?.issues);
}
