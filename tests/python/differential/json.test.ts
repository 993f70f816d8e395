// Differential: json.loads (values, big ints exact, errors with CPython's message and position) and json.dumps vs CPython.
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { pyJsonDumps, pyJsonValue, pyRepr } from "../../../environments/sdk/python/index.js";
import { type Answer, answerOf, assertSame, Oracle } from "./oracle.js";

let oracle: Oracle;
let before313 = false;
beforeAll(async () => {
  oracle = await Oracle.start();
  const [major, minor] = await oracle.version();
  before313 = major === 3 && minor < 13;
  await oracle.define(`
OPS["loads"] = lambda s: repr(json.loads(s))
OPS["dumps"] = lambda s, ascii, keys, indent: json.dumps(json.loads(s), ensure_ascii=ascii, sort_keys=keys, indent=indent)
`);
});
afterAll(() => oracle?.stop());

const STRING_PIECES = ["a", "\\u00e9", "\\ud83d\\ude00", "\\ud800", "\\n", "\\/", '\\"', "\u00e9", "\u{1f600}", "'", "\u0130", "\\x", "\t", "\u2028", "\ufeff"];
/** JSON-ish text: numbers of every shape (huge ints, exponents, NaN/Infinity), strings with escapes, duplicate keys. */
const value: fc.Arbitrary<string> = fc.letrec<{ v: string }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(
      "0",
      "-0",
      "1",
      "-1",
      "1.0",
      "1e5",
      "1E-5",
      "-0.0",
      "1.5e300",
      "1e400",
      "12345678901234567890123",
      "-99999999999999999999",
      "NaN",
      "Infinity",
      "-Infinity",
      "true",
      "false",
      "null",
      "9007199254740993",
      "0.1",
    ),
    fc.array(fc.constantFrom(...STRING_PIECES), { maxLength: 4 }).map((p) => `"${p.join("")}"`),
    fc.array(tie("v"), { maxLength: 3 }).map((items) => `[${items.join(", ")}]`),
    fc
      .array(fc.tuple(fc.constantFrom('"a"', '"b"', '"__proto__"', '"\u0130"'), tie("v")), { maxLength: 3 })
      .map((kv) => `{${kv.map(([k, v]) => `${k}: ${v}`).join(",")}}`),
  ),
})).v;

/** Valid text, or text broken by one edit: a deleted or inserted character (positions in errors count code points). */
const text = fc
  .tuple(value, fc.nat(), fc.constantFrom("", "", "", "del", ",", "]", "}", "\ufeff", "\x01", "\u{1f600}", " ", "\u00a0", "'"))
  .map(([t, at, edit]) => {
    const i = at % (t.length + 1);
    if (edit === "") return t;
    return edit === "del" ? t.slice(0, i) + t.slice(i + 1) : t.slice(0, i) + edit + t.slice(i);
  });

/**
 * The layer follows CPython 3.13 (NeMo Gym's requires-python), which reports a trailing comma at the comma; 3.12 and
 * older say "Expecting value" (arrays) or "Expecting property name..." (objects) at the next token. Against an older
 * python3 our answer is restated in the older words, position moved to that token: the rest is compared as is.
 */
function asOlderCPython(text: string, answer: Answer): Answer {
  if (!before313 || !("err" in answer)) return answer;
  const m = /^Illegal trailing comma before end of (object|array): line \d+ column \d+ \(char (\d+)\)$/.exec(answer.msg);
  if (!m) return answer;
  const points = [...text];
  let pos = Number(m[2]) + 1;
  while (" \t\n\r".includes(points[pos] ?? "x")) pos++;
  const before = points.slice(0, pos);
  const line = before.filter((c) => c === "\n").length + 1;
  const column = pos - before.lastIndexOf("\n");
  const msg = m[1] === "object" ? "Expecting property name enclosed in double quotes" : "Expecting value";
  return { err: answer.err, msg: `${msg}: line ${line} column ${column} (char ${pos})` };
}

describe("json.loads and json.dumps", () => {
  it("json.loads: the same value (repr) or the same JSONDecodeError message and position", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 50, maxLength: 50 }), async (inputs) => {
        const answers = await oracle.run(inputs.map((s) => ["loads", s]));
        assertSame(
          inputs.map((input, k) => ({
            input,
            python: answers[k]!,
            ours: asOlderCPython(
              input,
              answerOf(() => pyRepr(pyJsonValue(input))),
            ),
          })),
        );
      }),
      { numRuns: 30 },
    );
  });

  it("json.dumps(json.loads(text)) with ensure_ascii, sort_keys and indent", async () => {
    const options = fc.tuple(fc.boolean(), fc.boolean(), fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(value, options), { minLength: 50, maxLength: 50 }), async (inputs) => {
        const answers = await oracle.run(inputs.map(([s, [a, k, n]]) => ["dumps", s, a, k, n === undefined ? null : { i: String(n) }]));
        const ours = ([s, [ensureAscii, sortKeys, indent]]: (typeof inputs)[number]) => pyJsonDumps(pyJsonValue(s), { ensureAscii, sortKeys, indent });
        assertSame(inputs.map((input, k) => ({ input, python: answers[k]!, ours: answerOf(() => ours(input)) })));
      }),
      { numRuns: 30 },
    );
  });
});
