// Python's difflib.SequenceMatcher over str (elements are code points): find_longest_match and ratio, autojunk included (mrcr, lc_niah).

export interface Match {
  a: number;
  b: number;
  size: number;
}

/** `SequenceMatcher(None, a, b, autojunk)`; no isjunk function (every NeMo Gym caller passes None). */
export class SequenceMatcher {
  private readonly a: number[];
  private readonly b: number[];
  /** b2j: each element of b to its indices in b, popular elements removed (autojunk). */
  private readonly b2j = new Map<number, number[]>();

  constructor(a: string, b: string, autojunk = true) {
    this.a = codePoints(a);
    this.b = codePoints(b);
    this.b.forEach((element, i) => {
      const indices = this.b2j.get(element);
      if (indices) indices.push(i);
      else this.b2j.set(element, [i]);
    });
    const n = this.b.length;
    if (autojunk && n >= 200) {
      const ntest = Math.floor(n / 100) + 1;
      for (const [element, indices] of [...this.b2j]) if (indices.length > ntest) this.b2j.delete(element);
    }
  }

  get lengthA(): number {
    return this.a.length;
  }

  get lengthB(): number {
    return this.b.length;
  }

  /** `find_longest_match(alo, ahi, blo, bhi)`; with no junk set, the extension loops for junk never run. */
  findLongestMatch(alo: number, ahi: number, blo: number, bhi: number): Match {
    const { a, b, b2j } = this;
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const newj2len = new Map<number, number>();
      for (const j of b2j.get(a[i]!) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        newj2len.set(j, k);
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
      j2len = newj2len;
    }
    // Popular elements are not junk: the match grows over equal neighbours (the bjunk set is empty).
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
      besti--;
      bestj--;
      bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
    return { a: besti, b: bestj, size: bestsize };
  }

  /** The sizes of `get_matching_blocks()` (the order and collapsing of blocks do not change their sum). */
  matchingBlocks(): Match[] {
    const queue: [number, number, number, number][] = [[0, this.a.length, 0, this.b.length]];
    const blocks: Match[] = [];
    for (let next = queue.pop(); next; next = queue.pop()) {
      const [alo, ahi, blo, bhi] = next;
      const match = this.findLongestMatch(alo, ahi, blo, bhi);
      if (!match.size) continue;
      blocks.push(match);
      if (alo < match.a && blo < match.b) queue.push([alo, match.a, blo, match.b]);
      if (match.a + match.size < ahi && match.b + match.size < bhi) queue.push([match.a + match.size, ahi, match.b + match.size, bhi]);
    }
    return blocks.sort((x, y) => x.a - y.a || x.b - y.b);
  }

  /** `ratio()`: 2.0 * matches / (len(a) + len(b)), or 1.0 when both are empty. */
  ratio(): number {
    const matches = this.matchingBlocks().reduce((sum, block) => sum + block.size, 0);
    const length = this.a.length + this.b.length;
    return length ? (2.0 * matches) / length : 1.0;
  }
}

function codePoints(text: string): number[] {
  return Array.from(text, (ch) => ch.codePointAt(0)!);
}
