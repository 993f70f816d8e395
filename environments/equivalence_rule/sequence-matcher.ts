// Python's difflib.SequenceMatcher(None, a, b).ratio() over code points, autojunk's "popular" purge included.

/** Where b's elements sit, minus the popular ones (autojunk: b of 200+ items, an element seen over len/100+1 times). */
function chainB(b: readonly string[]): Map<string, number[]> {
  const b2j = new Map<string, number[]>();
  b.forEach((element, j) => {
    const indices = b2j.get(element);
    if (indices) indices.push(j);
    else b2j.set(element, [j]);
  });
  if (b.length >= 200) {
    const ntest = Math.floor(b.length / 100) + 1;
    for (const [element, indices] of [...b2j]) if (indices.length > ntest) b2j.delete(element);
  }
  return b2j;
}

interface Match {
  i: number;
  j: number;
  size: number;
}

/** find_longest_match: the longest run that b2j sees, then extended over equal neighbours (popular ones too). */
function findLongestMatch(a: readonly string[], b: readonly string[], b2j: Map<string, number[]>, alo: number, ahi: number, blo: number, bhi: number): Match {
  let besti = alo;
  let bestj = blo;
  let bestsize = 0;
  let j2len = new Map<number, number>();
  for (let i = alo; i < ahi; i++) {
    const next = new Map<number, number>();
    for (const j of b2j.get(a[i]!) ?? []) {
      if (j < blo) continue;
      if (j >= bhi) break;
      const k = (j2len.get(j - 1) ?? 0) + 1;
      next.set(j, k);
      if (k > bestsize) {
        besti = i - k + 1;
        bestj = j - k + 1;
        bestsize = k;
      }
    }
    j2len = next;
  }
  // No element is junk (isjunk is None), so both of difflib's extension passes reduce to this one.
  while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
    besti--;
    bestj--;
    bestsize++;
  }
  while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
  return { i: besti, j: bestj, size: bestsize };
}

/** The number of matched elements over get_matching_blocks() (the sum does not depend on the queue's order). */
function matchedCount(a: readonly string[], b: readonly string[]): number {
  const b2j = chainB(b);
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  let matches = 0;
  for (let range = queue.pop(); range; range = queue.pop()) {
    const [alo, ahi, blo, bhi] = range;
    const { i, j, size } = findLongestMatch(a, b, b2j, alo, ahi, blo, bhi);
    if (size === 0) continue;
    matches += size;
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + size < ahi && j + size < bhi) queue.push([i + size, ahi, j + size, bhi]);
  }
  return matches;
}

/** SequenceMatcher(None, a, b).ratio(): 2·M / (len(a) + len(b)), 1.0 when both are empty. */
export function sequenceRatio(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  const length = left.length + right.length;
  return length ? (2.0 * matchedCount(left, right)) / length : 1.0;
}
