// The gateway's JSON API from the browser: the token kept for this tab's session and sent as a header, errors as one type.

const TOKEN_KEY = "edgegym.token";

/** An answer other than 2xx, with the gateway's error envelope read out. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: { line?: number; path: (string | number)[]; message: string }[] = [],
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export function token(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function setToken(value: string | null): void {
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
}

/** Called when the gateway answers 401 to a stored token (it was revoked, or the gateway restarted with others). */
let onUnauthorized: (error: ApiError) => void = () => undefined;
export function whenUnauthorized(handler: (error: ApiError) => void): void {
  onUnauthorized = handler;
}

async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string; issues?: ApiError["issues"] } };
    if (body.error?.message) return new ApiError(response.status, body.error.code ?? "error", body.error.message, body.error.issues ?? []);
  } catch {
    // Not the envelope: the text (or the status) says what happened.
  }
  return new ApiError(response.status, `http_${response.status}`, text.trim() || `${response.status} ${response.statusText}`);
}

/** A request with the bearer token (when one is kept); a non-2xx answer throws an ApiError. */
export async function request(path: string, init: RequestInit & { bearer?: string | null } = {}): Promise<Response> {
  const { bearer = token(), ...rest } = init;
  const headers = new Headers(rest.headers);
  if (bearer) headers.set("authorization", `Bearer ${bearer}`);
  let response: Response;
  try {
    response = await fetch(path, { ...rest, headers });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError(0, "unreachable", "The gateway did not answer (is it still running?)");
  }
  if (response.ok) return response;
  const error = await errorOf(response);
  if (response.status === 401 && init.bearer === undefined) onUnauthorized(error);
  throw error;
}

/**
 * A job's API path: the id (from the address bar, so anyone's link) encoded, so `../../v1/files` stays one path segment
 * of /v1/jobs and never reaches another route.
 */
export function jobPath(id: string, rest = ""): string {
  return `/v1/jobs/${encodeURIComponent(id)}${rest}`;
}

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return (await (await request(path, signal ? { signal } : {})).json()) as T;
}

export async function sendJson<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.headers = { "content-type": "application/json" };
    init.body = JSON.stringify(body);
  }
  return (await (await request(path, init)).json()) as T;
}

/** Fetches with the token and saves the answer as a file: a plain link could not carry the header. */
export async function download(path: string, filename: string): Promise<void> {
  const blob = await (await request(path)).blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
