// Property tests (fast-check): the JSON Lines reader, the JSON limits, the protocol schemas and the model proxy's converter
// hold for any input, not only the ones a person thought of.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toChatRequest } from "../../functions/model-proxy/convert.js";
import { jsonLimitError, parseJsonWithin } from "../../http/json.js";
import { type RawLine, readLines } from "../../http/jsonl.js";
import { AggregateMetricsRequest, DatasetRow, EdgegymError, parseOr400, ResponsesCreateParams, VerifyRequest } from "../../protocol/index.js";

const encoder = new TextEncoder();

/** A byte stream cut at the given offsets (anywhere, mid-character included). */
function chunked(bytes: Uint8Array, cuts: number[]): ReadableStream<Uint8Array> {
  const points = [...new Set(cuts.map((c) => c % (bytes.byteLength + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.byteLength]) {
    pieces.push(bytes.slice(start, point));
    start = point;
  }
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>, maxLineBytes?: number): Promise<RawLine[]> {
  const out: RawLine[] = [];
  for await (const line of readLines(stream, maxLineBytes === undefined ? {} : { maxLineBytes })) out.push(line);
  return out;
}

/** A line of any Unicode text but a newline. */
const lineText = fc.string({ unit: "grapheme", maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, " "));

describe("the JSON Lines reader", () => {
  it("gives back every line, whatever the chunking and line endings", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(lineText, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), async (texts, cuts, crlf) => {
        const body = texts.map((t) => `${t}${crlf ? "\r\n" : "\n"}`).join("");
        const read = await collect(chunked(encoder.encode(body), cuts));
        expect(read).toEqual(texts.map((text, i) => ({ line: i + 1, text })));
      }),
    );
  });

  it("reports each line over the limit with its exact size and keeps the others whole", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineText, { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.integer({ min: 1, max: 60 }),
        async (texts, cuts, max) => {
          const read = await collect(chunked(encoder.encode(texts.join("\n")), cuts), max);
          const expected = texts.map((text, i): RawLine => {
            const bytes = encoder.encode(text).byteLength;
            return bytes > max ? { line: i + 1, problem: "too_long", bytes } : { line: i + 1, text };
          });
          // A last empty line without a newline is no line at all.
          expect(read).toEqual(texts.length && texts.at(-1) === "" ? expected.slice(0, -1) : expected);
        },
      ),
    );
  });

  it("never throws on arbitrary bytes, and counts one line per newline", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(), { maxLength: 8 }), async (bytes, cuts) => {
        const read = await collect(chunked(bytes, cuts), 64);
        const newlines = bytes.filter((b) => b === 0x0a).length;
        const trailing = bytes.byteLength > 0 && bytes[bytes.byteLength - 1] !== 0x0a ? 1 : 0;
        expect(read.length).toBe(newlines + trailing);
        for (const line of read) if ("text" in line) expect(encoder.encode(line.text).byteLength).toBeLessThanOrEqual(64);
      }),
    );
  });
});

function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (value !== null && typeof value === "object") return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

/** Longest string (key or value) as JSON writes it, quotes excluded. */
function longestString(value: unknown): number {
  if (typeof value === "string") return JSON.stringify(value).length - 2;
  if (Array.isArray(value)) return Math.max(0, ...value.map(longestString));
  if (value !== null && typeof value === "object")
    return Math.max(0, ...Object.entries(value).flatMap(([k, v]) => [JSON.stringify(k).length - 2, longestString(v)]));
  return 0;
}

describe("the JSON limits", () => {
  it("refuse exactly the documents nested deeper than the limit", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (value, maxDepth) => {
        const refused = jsonLimitError(JSON.stringify(value), "body", { maxDepth, maxStringLength: Number.MAX_SAFE_INTEGER });
        expect(refused?.code ?? null).toBe(depthOf(value) > maxDepth ? "too_deeply_nested" : null);
      }),
    );
  });

  it("refuse exactly the documents holding a string longer than the limit", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 0, max: 30 }), (value, maxStringLength) => {
        const refused = jsonLimitError(JSON.stringify(value), "body", { maxDepth: 1000, maxStringLength });
        expect(refused?.code ?? null).toBe(longestString(value) > maxStringLength ? "string_too_long" : null);
      }),
    );
  });

  it("any text parses or is a 4xx, never another error", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.string({ unit: "binary" })), (text) => {
        try {
          parseJsonWithin(text, "body");
        } catch (error) {
          expect(error).toBeInstanceOf(EdgegymError);
          expect((error as EdgegymError).status).toBeLessThan(500);
        }
      }),
    );
  });
});

describe("the protocol schemas", () => {
  const schemas = { DatasetRow, ResponsesCreateParams, VerifyRequest, AggregateMetricsRequest };

  it.each(Object.entries(schemas))("%s: any JSON value is accepted or a 400 naming paths, never a crash", (name, schema) => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        try {
          parseOr400(schema, value, name);
        } catch (error) {
          expect(error).toBeInstanceOf(EdgegymError);
          expect((error as EdgegymError).status).toBe(400);
          expect((error as EdgegymError).issues?.length).toBeGreaterThan(0);
        }
      }),
    );
  });

  it("a row parsed once parses again to the same row", () => {
    fc.assert(
      fc.property(rowArbitrary(), (raw) => {
        const once = DatasetRow.parse(raw);
        expect(DatasetRow.parse(JSON.parse(JSON.stringify(once)))).toEqual(once);
      }),
    );
  });
});

const text = fc.string({ maxLength: 20 });
const callId = fc.stringMatching(/^call_[a-z0-9]{1,8}$/);
const itemArbitrary = fc.oneof(
  fc.record({ role: fc.constantFrom("user", "system", "developer", "assistant"), content: text }),
  fc.record({ type: fc.constant("function_call"), name: fc.stringMatching(/^[a-z_]{1,12}$/), arguments: fc.json(), call_id: callId }),
  fc.record({ type: fc.constant("function_call_output"), call_id: callId, output: text }),
  fc.record({ type: fc.constant("reasoning"), summary: fc.array(fc.record({ type: fc.constant("summary_text"), text }), { maxLength: 2 }) }),
);

function rowArbitrary() {
  return fc.record(
    {
      responses_create_params: fc.record(
        {
          input: fc.oneof(text, fc.array(itemArbitrary, { maxLength: 8 })),
          instructions: text,
          temperature: fc.double({ min: 0, max: 2, noNaN: true }),
          max_output_tokens: fc.integer({ min: 1, max: 4096 }),
        },
        { requiredKeys: ["input"] },
      ),
      expected_answer: text,
    },
    { requiredKeys: ["responses_create_params"] },
  );
}

describe("the model proxy's converter (Responses → Chat Completions)", () => {
  const options = { model: "m", developerAsSystem: true, reasoningParser: true, returnTokenIds: false };

  it("turns any valid request into chat messages that keep every call, output and user turn", () => {
    fc.assert(
      fc.property(rowArbitrary(), (row) => {
        const params = ResponsesCreateParams.parse(row.responses_create_params);
        const body = toChatRequest(params, options);
        const items = typeof params.input === "string" ? [] : params.input;
        const calls = body.messages.flatMap((m) => (Array.isArray(m.tool_calls) ? (m.tool_calls as { id: string }[]).map((c) => c.id) : []));
        expect(calls).toEqual(items.filter((i) => i.type === "function_call").map((i) => i.call_id));
        const outputs = body.messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id);
        expect(outputs).toEqual(items.filter((i) => i.type === "function_call_output").map((i) => i.call_id));
        const users = body.messages.filter((m) => m.role === "user").map((m) => m.content);
        const userItems =
          typeof params.input === "string" ? [params.input] : items.filter((i) => i.type === "message" && i.role === "user").map((i) => i.content);
        expect(users).toEqual(userItems);
        for (const message of body.messages) expect(["system", "user", "assistant", "tool", "developer"]).toContain(message.role);
      }),
    );
  });

  it("any value the schema accepts converts or is a 400, never another error", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        const parsed = ResponsesCreateParams.safeParse(value);
        if (!parsed.success) return;
        try {
          toChatRequest(parsed.data, options);
        } catch (error) {
          expect(error).toBeInstanceOf(EdgegymError);
          expect((error as EdgegymError).status).toBe(400);
        }
      }),
    );
  });
});
