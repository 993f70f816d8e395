// Malformed bodies (truncated, invalid, wrong kind, too deep, not UTF-8, too long a string, wrong content type) on every
// route that reads a JSON body.
import type { BadInput, CorpusTargets } from "./types.js";

const JSON_TYPE = { "content-type": "application/json" };
const DEPTH = 10_000;

/** A body that starts as a plausible request, so the problem is the one named and not a missing field. */
const ROW_START = '{"responses_create_params": {"input": "hi"';

function deep(open: string, close: string, inner = "1"): string {
  return open.repeat(DEPTH) + inner + close.repeat(DEPTH);
}

/** Bytes that are not UTF-8 (a lone continuation byte, an overlong form) inside an otherwise valid JSON string. */
function notUtf8(): Uint8Array {
  const before = Buffer.from(`${ROW_START.slice(0, -5)}"hi \u00e9 `, "utf8");
  const after = Buffer.from('"}}', "utf8");
  return new Uint8Array([...before, 0x80, 0xc0, 0xaf, 0xff, ...after]);
}

interface Variant {
  name: string;
  body: string | Uint8Array;
  headers?: Record<string, string>;
  status?: number;
  code?: string;
}

const VARIANTS: Variant[] = [
  { name: "truncated JSON", body: ROW_START, code: "invalid_json" },
  { name: "invalid JSON", body: "{oops: 1}", code: "invalid_json" },
  { name: "trailing garbage", body: '{"a": 1} x', code: "invalid_json" },
  { name: "NaN literal", body: '{"a": NaN}', code: "invalid_json" },
  { name: "single quotes", body: "{'a': 1}", code: "invalid_json" },
  { name: "a JSON array", body: "[]" },
  { name: "a JSON number", body: "42" },
  { name: "a JSON string", body: '"hello"' },
  { name: "JSON null", body: "null" },
  { name: "arrays nested 10,000 deep", body: deep("[", "]"), status: 400, code: "too_deeply_nested" },
  { name: "objects nested 10,000 deep", body: deep('{"a":', "}"), status: 400, code: "too_deeply_nested" },
  { name: "nested 10,000 deep inside a field", body: `{"responses_create_params": {"input": ${deep("[", "]")}}}`, status: 400, code: "too_deeply_nested" },
  { name: "bytes that are not UTF-8", body: notUtf8(), status: 400, code: "invalid_utf8" },
  { name: "a 5-million-character string", body: `{"responses_create_params": {"input": "${"x".repeat(5_000_000)}"}}`, status: 413, code: "string_too_long" },
  { name: "text/plain that is not JSON", body: "hello, model", headers: { "content-type": "text/plain" }, status: 400, code: "invalid_json" },
  { name: "HTML", body: "<html></html>", headers: { "content-type": "text/html" }, status: 415 },
  { name: "XML", body: '<?xml version="1.0"?><row/>', headers: { "content-type": "application/xml" }, status: 415 },
  { name: "a form body", body: "a=1&b=2", headers: { "content-type": "application/x-www-form-urlencoded" }, status: 415 },
  { name: "multipart", body: "--x\r\n\r\n{}\r\n--x--", headers: { "content-type": "multipart/form-data; boundary=x" }, status: 415 },
];

/** The routes that read a JSON body, each with a variant set that applies. */
function jsonRoutes(t: CorpusTargets): { route: string; path: string; skip?: string[] }[] {
  const env = (name: string, route: string) => `/v1/environments/${name}/${route}`;
  return [
    { route: "run", path: "/run" },
    { route: "jobs (JSON)", path: "/v1/jobs" },
    { route: "responses", path: "/v1/responses" },
    { route: "chat completions", path: "/v1/chat/completions" },
    { route: "seed_session", path: env(t.stateful.name, "seed_session") },
    { route: "verify", path: env(t.simple.name, "verify") },
    { route: "tool", path: env(t.simple.name, t.simple.tool) },
    { route: "stateful tool", path: env(t.stateful.name, t.stateful.tool) },
    { route: "aggregate_metrics", path: env(t.simple.name, "aggregate_metrics") },
    { route: "reset", path: env(t.gymnasium, "reset") },
    { route: "step", path: env(t.gymnasium, "step") },
  ];
}

export function bodyCases(targets: CorpusTargets): BadInput[] {
  const cases: BadInput[] = [];
  for (const { route, path } of jsonRoutes(targets)) {
    for (const variant of VARIANTS) {
      // The jobs route reads a non-JSON content type as JSON Lines: its content-type cases are in cases-routes.ts.
      if (route === "jobs (JSON)" && variant.headers) continue;
      cases.push({
        name: `${route}: ${variant.name}`,
        method: "POST",
        path,
        headers: variant.headers ?? JSON_TYPE,
        body: variant.body,
        ...(variant.status ? { status: variant.status } : {}),
        ...(variant.code ? { code: variant.code } : {}),
      });
    }
  }
  return cases;
}
