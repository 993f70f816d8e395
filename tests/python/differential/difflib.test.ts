// Differential: the SDK's difflib.SequenceMatcher (ratio, find_longest_match; autojunk on and off) vs CPython's, on
// generated strings short and long (autojunk's purge starts at 200 elements of b) over small alphabets and astral ones.
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { SequenceMatcher } from "../../../environments/sdk/python/difflib.js";
import { answerOf, assertSame, Oracle } from "./oracle.js";

let oracle: Oracle;
beforeAll(async () => {
  oracle = await Oracle.start();
  await oracle.define(`
import difflib
OPS["ratio"] = lambda a, b, junk: difflib.SequenceMatcher(None, a, b, autojunk=junk).ratio()
OPS["longest"] = lambda a, b, junk: list(difflib.SequenceMatcher(None, a, b, autojunk=junk).find_longest_match(0, len(a), 0, len(b)))
`);
});
afterAll(() => oracle?.stop());

const alphabet = fc.constantFrom("a", "b", "c", " ", "\u{1f600}", "\u00e9");
/** Short texts, and long ones where a few elements are "popular" (more than len/100 + 1 of b). */
const text = fc.oneof(
  fc.array(alphabet, { maxLength: 30 }).map((p) => p.join("")),
  fc.array(alphabet, { minLength: 190, maxLength: 320 }).map((p) => p.join("")),
);
const cases = fc.array(fc.tuple(text, text, fc.boolean()), { minLength: 25, maxLength: 25 });

describe("difflib.SequenceMatcher(None, a, b, autojunk)", () => {
  it("ratio() is CPython's, to the last bit (floats cross as their IEEE bits)", async () => {
    await fc.assert(
      fc.asyncProperty(cases, async (inputs) => {
        const answers = await oracle.run(inputs.map(([a, b, junk]) => ["ratio", a, b, junk]));
        assertSame(inputs.map((input, k) => ({ input, python: answers[k]!, ours: answerOf(() => new SequenceMatcher(input[0], input[1], input[2]).ratio()) })));
      }),
      { numRuns: 15 },
    );
  });

  it("find_longest_match over the whole of a and b is CPython's (a, b, size)", async () => {
    await fc.assert(
      fc.asyncProperty(cases, async (inputs) => {
        const answers = await oracle.run(inputs.map(([a, b, junk]) => ["longest", a, b, junk]));
        assertSame(
          inputs.map((input, k) => ({
            input,
            python: answers[k]!,
            ours: answerOf(() => {
              const matcher = new SequenceMatcher(input[0], input[1], input[2]);
              const m = matcher.findLongestMatch(0, matcher.lengthA, 0, matcher.lengthB);
              return [BigInt(m.a), BigInt(m.b), BigInt(m.size)];
            }),
          })),
        );
      }),
      { numRuns: 15 },
    );
  });
});
