// CPython's random.Random for an int seed: MT19937 seeded as random.seed(int) does, and the methods drawn from it.
import { PyError } from "./errors.js";

const N = 624;

/** The bit length of a positive integer (int.bit_length()). */
const bitLength = (n: bigint): number => n.toString(2).length;

/** x // y, rounding toward negative infinity as Python does. */
function floorDiv(x: bigint, y: bigint): bigint {
  const q = x / y;
  return x % y !== 0n && x < 0n !== y < 0n ? q - 1n : q;
}

/** An int argument: a bigint, or a number that is an exact integer (TypeError otherwise, as for a float). */
function asInt(n: number | bigint): bigint {
  if (typeof n === "bigint") return n;
  if (!Number.isInteger(n)) throw new PyError("TypeError", `'float' object cannot be interpreted as an integer`);
  return BigInt(n);
}

/**
 * random.Random(seed) for an int seed (negative seeds use abs(seed), as CPython does). Each method draws from the
 * generator exactly as CPython's does, so a seed gives the same values in the same order. Range bounds may be
 * bigints; a drawn value is returned as a number. The ValueError messages are Python 3.12's.
 */
export class PyRandom {
  private readonly mt = new Uint32Array(N);
  private index = N;

  constructor(seed: number | bigint) {
    if (typeof seed === "number" && !Number.isSafeInteger(seed)) throw new PyError("TypeError", "PyRandom takes an int seed");
    let rest = BigInt(seed) < 0n ? -BigInt(seed) : BigInt(seed);
    const key: number[] = [];
    do {
      key.push(Number(rest & 0xffffffffn));
      rest >>= 32n;
    } while (rest > 0n);
    this.initByArray(key);
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = N;
  }

  private initByArray(key: number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  /** genrand_uint32: the next 32-bit output. */
  private next32(): number {
    const mt = this.mt;
    if (this.index >= N) {
      for (let k = 0; k < N; k++) {
        const y = (mt[k]! & 0x80000000) | (mt[(k + 1) % N]! & 0x7fffffff);
        mt[k] = mt[(k + 397) % N]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** getrandbits(k) for 0 <= k <= 32, as a number. */
  getrandbits(k: number): number {
    if (!Number.isInteger(k) || k < 0 || k > 32) throw new PyError("ValueError", "getrandbits(k) as a number takes 0 <= k <= 32; use getrandbitsBig");
    if (k === 0) return 0;
    return this.next32() >>> (32 - k);
  }

  /** getrandbits(k) for any k >= 0: 32-bit words, least significant first, the last one cut to what remains. */
  getrandbitsBig(k: number): bigint {
    if (k < 0) throw new PyError("ValueError", "number of bits must be non-negative");
    let value = 0n;
    for (let shift = 0; k > 0; shift += 32, k -= 32) {
      const word = k < 32 ? this.next32() >>> (32 - k) : this.next32();
      value |= BigInt(word) << BigInt(shift);
    }
    return value;
  }

  /** random(): a float in [0, 1) from 27 + 26 bits (genrand_res53). */
  random(): number {
    const a = this.next32() >>> 5;
    const b = this.next32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** _randbelow(n) for n > 0: rejection sampling over getrandbits(n.bit_length()). */
  private randbelow(n: bigint): bigint {
    const k = bitLength(n);
    if (k <= 32) {
      const small = Number(n);
      let r = this.getrandbits(k);
      while (r >= small) r = this.getrandbits(k);
      return BigInt(r);
    }
    let r = this.getrandbitsBig(k);
    while (r >= n) r = this.getrandbitsBig(k);
    return r;
  }

  /** randrange(stop) or randrange(start, stop[, step]), on integers (arithmetic exact; the result is a JS number). */
  randrange(start: number | bigint, stop?: number | bigint, step: number | bigint = 1): number {
    const [a, b, s] = [start, stop ?? 0, step].map(asInt) as [bigint, bigint, bigint];
    if (stop === undefined) {
      if (a > 0n) return Number(this.randbelow(a));
      throw new PyError("ValueError", "empty range for randrange()");
    }
    const width = b - a;
    if (s === 1n) {
      if (width > 0n) return Number(a + this.randbelow(width));
      throw new PyError("ValueError", `empty range in randrange(${start}, ${stop})`);
    }
    if (s === 0n) throw new PyError("ValueError", "zero step for randrange()");
    const n = floorDiv(width + (s > 0n ? s - 1n : s + 1n), s);
    if (n <= 0n) throw new PyError("ValueError", `empty range in randrange(${start}, ${stop}, ${step})`);
    return Number(a + s * this.randbelow(n));
  }

  /** randint(a, b): randrange(a, b + 1). */
  randint(a: number | bigint, b: number | bigint): number {
    return this.randrange(a, asInt(b) + 1n);
  }

  /** choice(seq): IndexError for an empty sequence. */
  choice<T>(seq: readonly T[]): T {
    if (seq.length === 0) throw new PyError("IndexError", "Cannot choose from an empty sequence");
    return seq[Number(this.randbelow(BigInt(seq.length)))]!;
  }

  /** shuffle(x) in place: Fisher–Yates from the end, as CPython walks it. */
  shuffle<T>(x: T[]): void {
    for (let i = x.length - 1; i > 0; i--) {
      const j = Number(this.randbelow(BigInt(i + 1)));
      [x[i], x[j]] = [x[j]!, x[i]!];
    }
  }

  /** uniform(a, b): a + (b - a) * random(). */
  uniform(a: number, b: number): number {
    return a + (b - a) * this.random();
  }
}
