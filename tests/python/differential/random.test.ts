// Differential: random.Random(seed) against CPython: the same draws, in the same order, for generated seeds and call sequences.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PyError, PyRandom } from "../../../environments/sdk/python/index.js";
import { assertSame, encode, Oracle } from "./oracle.js";

let oracle: Oracle;
beforeAll(async () => {
  oracle = await Oracle.start();
  await oracle.define(`
import random
def draws(seed, calls):
    r = random.Random(seed)
    out = []
    for name, *args in calls:
        try:
            if name == "choice":
                out.append(r.choice(list(range(args[0]))))
            elif name == "shuffle":
                x = list(range(args[0]))
                r.shuffle(x)
                out.append(x)
            else:
                out.append(getattr(r, name)(*args))
        except (ValueError, IndexError) as e:
            out.append(["err", type(e).__name__])
    return out
OPS["draws"] = draws
`);
});
afterAll(() => oracle?.stop());

type Call = ["getrandbits" | "random" | "randrange" | "randint" | "choice" | "shuffle" | "uniform", ...number[]];

/** Our side of one call, as the oracle encodes it (ints as {i}: bigint; floats as their bits). */
function ours(random: PyRandom, [name, ...args]: Call): unknown {
  try {
    switch (name) {
      case "getrandbits":
        return args[0]! <= 32 ? BigInt(random.getrandbits(args[0]!)) : random.getrandbitsBig(args[0]!);
      case "random":
        return random.random();
      case "uniform":
        return random.uniform(args[0]!, args[1]!);
      case "randrange":
        return BigInt(random.randrange(args[0]!, args[1], args[2]));
      case "randint":
        return BigInt(random.randint(args[0]!, args[1]!));
      case "choice":
        return BigInt(random.choice([...Array(args[0]!).keys()]));
      case "shuffle": {
        const x = [...Array(args[0]!).keys()];
        random.shuffle(x);
        return x.map(BigInt);
      }
    }
  } catch (error) {
    if (error instanceof PyError) return ["err", error.pyType];
    throw error;
  }
}

const small = fc.integer({ min: -40, max: 40 });
/** Bounds that cross the 32-bit word (rejection over 33+ bits) and the empty and negative ranges. */
const bound = fc.oneof(small, fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), fc.constantFrom(2 ** 32, 2 ** 32 + 1, 2 ** 31, 2 ** 53 - 1));
const CALL: fc.Arbitrary<Call> = fc.oneof(
  fc.tuple(fc.constant("getrandbits" as const), fc.integer({ min: 0, max: 130 })),
  fc.tuple(fc.constant("random" as const)),
  fc.tuple(fc.constant("uniform" as const), fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: -1e6, max: 1e6, noNaN: true })),
  fc.tuple(fc.constant("randint" as const), small, bound),
  fc.tuple(fc.constant("randrange" as const), bound),
  fc.tuple(fc.constant("randrange" as const), small, bound),
  fc.tuple(fc.constant("randrange" as const), small, bound, fc.integer({ min: -7, max: 7 })),
  fc.tuple(fc.constant("choice" as const), fc.integer({ min: 0, max: 30 })),
  fc.tuple(fc.constant("shuffle" as const), fc.integer({ min: 0, max: 30 })),
);
const SEED = fc.oneof(
  fc.integer({ min: -(2 ** 40), max: 2 ** 40 }).map(BigInt),
  fc.bigInt({ min: -(2n ** 200n), max: 2n ** 200n }),
  fc.constantFrom(0n, 1n, -1n, 2n ** 32n),
);

const callArgs = (call: Call) => [call[0], ...call.slice(1).map((n) => encode(Number.isInteger(n) && call[0] !== "uniform" ? BigInt(n as number) : n))];

describe("random.Random(seed)", () => {
  it("getrandbits, random, uniform, randrange, randint, choice and shuffle draw CPython's values in CPython's order", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(SEED, fc.array(CALL, { minLength: 1, maxLength: 30 })), { minLength: 20, maxLength: 20 }), async (inputs) => {
        const answers = await oracle.run(inputs.map(([seed, calls]) => ["draws", { i: seed.toString() }, calls.map(callArgs)]));
        assertSame(
          inputs.map(([seed, calls], k) => {
            const random = new PyRandom(seed);
            return { input: [seed, calls], python: answers[k]!, ours: { ok: encode(calls.map((call) => ours(random, call))) } };
          }),
        );
      }),
      { numRuns: 15 },
    );
  });

  it("after 624 draws the state twists: the 10,000th getrandbits(32) of seed 12345 is CPython's", async () => {
    const [answer] = await oracle.run([["draws", { i: "12345" }, Array.from({ length: 10_000 }, () => ["getrandbits", { i: "32" }])]]);
    const random = new PyRandom(12345);
    const ourDraws = Array.from({ length: 10_000 }, () => BigInt(random.getrandbits(32)));
    expect(answer).toEqual({ ok: encode(ourDraws) });
  });
});
