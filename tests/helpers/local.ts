// Starts the real local emulation (workerd through Miniflare, plus the simulator) for a test file.
import { startLocal, type Local, type LocalOptions } from "../../local/emulation.js";

export async function startTestLocal(options: LocalOptions = {}): Promise<Local> {
  // Worker logs stay quiet in tests unless EDGEGYM_TEST_LOGS asks for them.
  const logLevel = process.env.EDGEGYM_TEST_LOGS ? "debug" : "silent";
  return startLocal({ port: 0, persist: false, logLevel, ...options });
}

export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  // Tests read arbitrary JSON answers field by field; typing each one would say nothing the assertions do not.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, {
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
