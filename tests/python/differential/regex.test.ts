// Differential: Python's `re` through the SDK's translator vs CPython: IGNORECASE folding over every cased character,
// \s \w \d \b and their complements (Unicode and ASCII), findall's groups, on generated patterns and texts.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pyFinditerWhole, pyFullmatch, pyMatch, pySearch, pySub, pythonFindall } from "../../../environments/sdk/python/index.js";
import { answerOf, assertSame, Oracle } from "./oracle.js";
import { pyText } from "./unicode.js";

let oracle: Oracle;
let assigned: (cp: number) => boolean;
beforeAll(async () => {
  oracle = await Oracle.start();
  assigned = await oracle.assigned();
  await oracle.define(`
OPS["match"] = lambda kind, p, s, flags: (lambda m: None if m is None else [m.group(0), list(m.groups()), list(m.span())])(getattr(re, kind)(p, s, flags))
OPS["finditer"] = lambda p, s: [m.group(0) for m in re.finditer(p, s)]
OPS["sub"] = lambda p, s: re.sub(p, lambda m: "<" + "|".join(g or "" for g in m.groups()) + ">", s)
OPS["cased"] = lambda: [cp for cp in range(0x110000) if not 0xD800 <= cp < 0xE000 and (chr(cp).lower() != chr(cp) or chr(cp).upper() != chr(cp) or chr(cp).casefold() != chr(cp))]
`);
});
afterAll(() => oracle?.stop());

const IGNORECASE = 2;

describe("IGNORECASE over every character CPython gives a case mapping", () => {
  it("each as a literal and as a one-character class matches the same characters (i, I, İ, ı all match each other)", async () => {
    const [answer] = await oracle.run([["cased"]]);
    const cased = (answer as { ok: { i: string }[] }).ok.map((v) => String.fromCodePoint(Number(v.i)));
    expect(cased.length).toBeGreaterThan(2000);
    const subject = cased.join("");
    const patterns = [...cased, ...cased.map((c) => `[${c}]`)];
    const answers = await oracle.run([["findall_each", patterns, subject, { i: String(IGNORECASE) }]]);
    const theirs = (answers[0] as { ok: string[] }).ok;
    assertSame(
      patterns.map((pattern, k) => ({ input: pattern, python: { ok: theirs[k] }, ours: answerOf(() => pythonFindall(pattern, subject, true).join("")) })),
    );
  });
});

/** A pattern atom: the classes whose meaning differs between the languages, anchors, literals, groups. */
const ATOM = fc.constantFrom(
  "\\s",
  "\\S",
  "\\w",
  "\\W",
  "\\d",
  "\\D",
  "\\b",
  "\\B",
  ".",
  "[\\s\\d]",
  "[^\\w]",
  "[^\\s]",
  "[\\W\\d]",
  "\\A",
  "\\Z",
  "^",
  "$",
  "a",
  "i",
  "I",
  "\u0130",
  "\u0131",
  "\u00df",
  "\u03c3",
  "\u017f",
  "k",
  "\u212a",
  "[a-z]",
  "[A-Z]",
  "[i-k]",
  "[^i]",
  "[\u0100-\u0131]",
  "\\x85",
  "\\ufeff",
  "_",
);
const QUANT = fc.constantFrom("", "", "", "+", "*", "?", "{1,2}", "+?", "*?");
const PATTERN = fc
  .tuple(
    fc.constantFrom("", "", "(?a)", "(?i)", "(?m)", "(?s)", "(?ms)"),
    fc.array(fc.tuple(ATOM, QUANT, fc.constantFrom("", "", "", "(", ")")), { minLength: 1, maxLength: 4 }),
  )
  .map(([flags, parts]) => {
    let depth = 0;
    let body = "";
    for (const [atom, quant, paren] of parts) {
      // Only balanced groups; quantifiers never follow an anchor (Python and JS both reject some of those).
      const anchor = /^(\\[AZbB]|\^|\$)$/.test(atom);
      body += atom + (anchor ? "" : quant);
      if (paren === "(") {
        body += "(";
        depth++;
      } else if (paren === ")" && depth > 0) {
        body += ")";
        depth--;
      }
    }
    return flags + body + ")".repeat(depth);
  });

/**
 * The one known difference: under IGNORECASE JS's i flag closes every class over simple case folding, and U+0345
 * (a combining mark, not \\w in Python) folds to ι, a letter; no JS construct under the i flag can tell them apart.
 * Pinned here so that a fix shows up; the generated texts below leave U+0345 out of ignore-case cases.
 */
const KNOWN_GAP = "\u0345";

describe("the known gap", () => {
  it("(?i)\\w matches U+0345 in the translation, not in CPython", async () => {
    const [python] = await oracle.run([["findall", "\\w", KNOWN_GAP, { i: String(IGNORECASE) }]]);
    expect(python).toEqual({ ok: [] });
    expect(pythonFindall("\\w", KNOWN_GAP, true)).toEqual([KNOWN_GAP]);
  });
});

describe("findall on generated patterns and texts", () => {
  it("Unicode and ASCII \\s \\w \\d \\b, IGNORECASE, MULTILINE, DOTALL, groups: the same matches", async () => {
    const text = pyText((cp) => assigned(cp), 16);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(PATTERN, text, fc.boolean()), { minLength: 40, maxLength: 40 }), async (inputs) => {
        // re.ASCII with IGNORECASE has no JS form (the translator says so); keep the pair apart.
        const cases = inputs.map(([p, s, i]) => {
          const ignoreCase = (i && !p.startsWith("(?a)")) || p.startsWith("(?i)");
          return [p, ignoreCase ? s.replaceAll(KNOWN_GAP, "") : s, i && !p.startsWith("(?a)")] as const;
        });
        const answers = await oracle.run(cases.map(([p, s, i]) => ["findall", p, s, { i: i ? String(IGNORECASE) : "0" }]));
        assertSame(
          cases.map((input, k) => ({ input, python: answers[k]!, ours: answerOf(() => pythonFindall(input[0], input[1], input[2])) })),
          false,
        );
      }),
      { numRuns: 15 },
    );
  });
});

describe("search, match and fullmatch on generated patterns and texts", () => {
  it("the same match, groups (None when unmatched) and span in code points", async () => {
    const text = pyText((cp) => assigned(cp), 12);
    const kinds = { search: pySearch, match: pyMatch, fullmatch: pyFullmatch };
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom("search", "match", "fullmatch"), PATTERN, text), { minLength: 40, maxLength: 40 }), async (inputs) => {
        // Ignore-case patterns leave U+0345 out, as above.
        const cases = inputs.map(([k, p, s]) => [k, p, p.startsWith("(?i)") ? s.replaceAll(KNOWN_GAP, "") : s] as const);
        const answers = await oracle.run(cases.map(([k, p, s]) => ["match", k, p, s, { i: "0" }]));
        const ours = ([k, p, s]: (typeof cases)[number]) => {
          const m = kinds[k as keyof typeof kinds](p, s);
          return m && [m.group, m.groups, m.span.map(BigInt)];
        };
        assertSame(
          cases.map((input, k) => ({ input, python: answers[k]!, ours: answerOf(() => ours(input)) })),
          false,
        );
      }),
      { numRuns: 12 },
    );
  });
});

describe("finditer on generated patterns and texts", () => {
  it("the same whole matches, empty ones included, where an empty match is followed by a non-empty one at the same place", async () => {
    const text = pyText((cp) => assigned(cp), 16);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(PATTERN, text), { minLength: 40, maxLength: 40 }), async (inputs) => {
        const cases = inputs.map(([p, s]) => [p, p.startsWith("(?i)") ? s.replaceAll(KNOWN_GAP, "") : s] as const);
        const answers = await oracle.run(cases.map(([p, s]) => ["finditer", p, s]));
        assertSame(
          cases.map((input, k) => ({ input, python: answers[k]!, ours: answerOf(() => pyFinditerWhole(input[0], input[1])) })),
          false,
        );
      }),
      { numRuns: 15 },
    );
  });
});

describe("sub on generated patterns and texts", () => {
  it("re.sub with a function of the groups: the same text, empty matches (none inside a surrogate pair) included", async () => {
    const text = pyText((cp) => assigned(cp), 16);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(PATTERN, text), { minLength: 40, maxLength: 40 }), async (inputs) => {
        const cases = inputs.map(([p, s]) => [p, p.startsWith("(?i)") ? s.replaceAll(KNOWN_GAP, "") : s] as const);
        const answers = await oracle.run(cases.map(([p, s]) => ["sub", p, s]));
        assertSame(
          cases.map((input, k) => ({ input, python: answers[k]!, ours: answerOf(() => pySub(input[0], input[1], (groups) => `<${groups.join("|")}>`)) })),
          false,
        );
      }),
      { numRuns: 15 },
    );
  });
});
