// Differential: int()/float() parsing, repr(float), round() and format(x, spec) against CPython on generated inputs.
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import * as py from "../../../environments/sdk/python/index.js";
import { answerOf, assertSame, f, Oracle } from "./oracle.js";

let oracle: Oracle;
beforeAll(async () => {
  oracle = await Oracle.start();
  await oracle.define(`
OPS["int"] = lambda s, base: int(s, base)
OPS["float"] = lambda s: float(s)
OPS["round"] = lambda x, *n: round(x, *n)
OPS["format"] = lambda x, spec: format(x, spec)
`);
});
afterAll(() => oracle?.stop());

const RUNS = { numRuns: 40 };
const BATCH = { minLength: 50, maxLength: 50 };
const valueError = (value: unknown) => {
  if (value === null) throw new py.PyError("ValueError", "invalid literal");
  return value;
};

const SPACE = fc.constantFrom("", " ", "\t", "\n", "\x85", "\x1c", "\u3000", "\u00a0", "\ufeff", "\u200b");
const SIGN = fc.constantFrom("", "", "-", "+", "--", "+-");
/** Digits of several scripts (ASCII, Arabic-Indic, Devanagari, fullwidth, mathematical bold), with stray underscores. */
const DIGIT = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(..."0123456789") },
  { weight: 1, arbitrary: fc.constantFrom("\u0661", "\u0967", "\uff19", "\u{1d7d8}", "\u00b2", "\u2460") },
  { weight: 2, arbitrary: fc.constant("_") },
);
const digits = (max: number) => fc.array(DIGIT, { minLength: 0, maxLength: max }).map((d) => d.join(""));

describe("int(text, base) and float(text)", () => {
  it("int: underscores, signs, Python's whitespace (not the BOM), Unicode digits, prefixes, integers of any size", async () => {
    const prefix = fc.constantFrom("", "", "0x", "0X", "0b", "0o", "0x_", "0_");
    const hex = fc.array(fc.constantFrom(..."0123456789abcdefABCDEF_"), { maxLength: 8 }).map((d) => d.join(""));
    const text = fc.tuple(SPACE, SIGN, prefix, fc.oneof(digits(60), hex), SPACE).map((p) => p.join(""));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(text, fc.constantFrom(10, 10, 16, 2, 8) as fc.Arbitrary<2 | 8 | 10 | 16>), BATCH), async (inputs) => {
        const answers = await oracle.run(inputs.map(([s, b]) => ["int", s, { i: String(b) }]));
        assertSame(
          inputs.map((input, k) => ({ input, python: answers[k]!, ours: answerOf(() => valueError(py.pyInt(input[0], input[1]))) })),
          false,
        );
      }),
      RUNS,
    );
  });

  it("float: inf/nan/infinity in any case, exponents, underscores, Unicode digits, whitespace", async () => {
    const special = fc
      .constantFrom("inf", "nan", "infinity", "infinit", "nana", "in f")
      .chain((w) =>
        fc.array(fc.boolean(), { minLength: w.length, maxLength: w.length }).map((up) => [...w].map((c, i) => (up[i] ? c.toUpperCase() : c)).join("")),
      );
    const exponent = fc.oneof(
      fc.constant(""),
      fc.tuple(fc.constantFrom("e", "E"), fc.constantFrom("", "+", "-"), digits(4)).map((p) => p.join("")),
    );
    const decimal = fc.tuple(digits(20), fc.constantFrom("", ".", "."), digits(20), exponent).map((p) => p.join(""));
    const text = fc.tuple(SPACE, SIGN, fc.oneof({ weight: 4, arbitrary: decimal }, { weight: 1, arbitrary: special }), SPACE).map((p) => p.join(""));
    await fc.assert(
      fc.asyncProperty(fc.array(text, BATCH), async (inputs) => {
        const answers = await oracle.run(inputs.map((s) => ["float", s]));
        assertSame(
          inputs.map((input, k) => ({ input, python: answers[k]!, ours: answerOf(() => valueError(py.parsePyFloat(input))) })),
          false,
        );
      }),
      RUNS,
    );
  });
});

describe("int(text) and float(text) raising ValueError with CPython's message", () => {
  it("the message quotes the text by repr (quotes, backslashes, controls, non-printables), int()'s cut to 200 characters", async () => {
    const piece = fc.constantFrom("1", "_", " ", "'", '"', "\\", "\n", "\x00", "\x85", "\ufeff", "\u2028", "\u{1f600}", "e", ".", "inf", "x", "\u0661");
    const text = fc.oneof(
      fc.array(piece, { maxLength: 12 }).map((p) => p.join("")),
      fc.tuple(fc.integer({ min: 190, max: 210 }), piece).map(([n, p]) => `'${p}`.repeat(n)),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(text, fc.constantFrom(10, 16, 2, 8) as fc.Arbitrary<2 | 8 | 10 | 16>), BATCH), async (inputs) => {
        const answers = await oracle.run(
          inputs.flatMap(([s, b]) => [
            ["int", s, { i: String(b) }],
            ["float", s],
          ]),
        );
        assertSame(
          inputs.flatMap(([s, b], k) => [
            { input: ["int", s, b], python: answers[2 * k]!, ours: answerOf(() => py.pyIntOf(s, b)) },
            { input: ["float", s], python: answers[2 * k + 1]!, ours: answerOf(() => py.pyFloatOf(s)) },
          ]),
        );
      }),
      { numRuns: 20 },
    );
  });
});

/** Doubles weighted toward halfway cases (k + 0.5) / 10^n, exact binary halves, huge and tiny magnitudes. */
const DOUBLE = fc.oneof(
  { weight: 3, arbitrary: fc.double({ noNaN: false }) },
  { weight: 3, arbitrary: fc.tuple(fc.integer({ min: -99999, max: 99999 }), fc.integer({ min: 0, max: 6 })).map(([k, n]) => (k + 0.5) / 10 ** n) },
  { weight: 2, arbitrary: fc.tuple(fc.integer({ min: -4096, max: 4096 }), fc.integer({ min: 0, max: 12 })).map(([k, n]) => k / 2 ** n) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      0.5,
      1.5,
      2.5,
      -0.5,
      -2.5,
      2.675,
      1.005,
      0.125,
      0.375,
      -0,
      0,
      1e16,
      1e15,
      9999999999999998,
      1e-4,
      9.9999e-5,
      5e-324,
      1.7976931348623157e308,
      1e22,
      123456789012345680000,
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: -400, max: 400 }).map((e) => Number(`1e${e}`)) },
);

describe("repr(float), round(), format()", () => {
  it("repr: shortest round-trip digits, the 1e16 and 1e-4 switches, -0.0, inf, nan", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(DOUBLE, BATCH), async (inputs) => {
        const answers = await oracle.run(inputs.map((x) => ["repr", f(x)]));
        assertSame(inputs.map((x, k) => ({ input: x, python: answers[k]!, ours: answerOf(() => py.pyFloatRepr(x)) })));
      }),
      RUNS,
    );
  });

  it("round(x) and round(x, ndigits): halves to even on the exact value, negative ndigits, errors for nan/inf", async () => {
    const ndigits = fc.option(fc.integer({ min: -5, max: 17 }), { nil: null, freq: 4 });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(DOUBLE, ndigits), BATCH), async (inputs) => {
        const answers = await oracle.run(inputs.map(([x, n]) => (n === null ? ["round", f(x)] : ["round", f(x), { i: String(n) }])));
        const ours = ([x, n]: [number, number | null]) => (n === null ? py.pyRound(x) : py.pyRound(x, n));
        assertSame(inputs.map((input, k) => ({ input, python: answers[k]!, ours: answerOf(() => ours(input)) })));
      }),
      RUNS,
    );
  });

  it("format(x, '[sign][#].N{f,e,g,%}'): correctly rounded, halves to even", async () => {
    const spec = fc
      .tuple(
        fc.constantFrom("", "+", " ", "-"),
        fc.constantFrom("", "", "#"),
        fc.option(fc.integer({ min: 0, max: 20 }), { nil: null }),
        fc.constantFrom(..."fFeEgG%"),
      )
      .map(([s, h, p, t]) => `${s}${h}${p === null ? "" : `.${p}`}${t}`);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(DOUBLE, spec), BATCH), async (inputs) => {
        const answers = await oracle.run(inputs.map(([x, s]) => ["format", f(x), s]));
        assertSame(inputs.map((input, k) => ({ input, python: answers[k]!, ours: answerOf(() => py.pyFormatFloat(input[0], input[1])) })));
      }),
      RUNS,
    );
  });
});
