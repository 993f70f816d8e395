// Python's random.randint / choice / sample, used where IFEval fills a missing instruction argument at random
// (NeMo Gym draws these too, so such rows are graded non-deterministically there as here).

let source: () => number = Math.random;

/** Swap the random source (tests); returns the previous one. */
export function setRandomSource(next: () => number): () => number {
  const previous = source;
  source = next;
  return previous;
}

/** random.randint(a, b): an integer in [a, b]. */
export function randint(a: number, b: number): number {
  if (b < a) throw new Error(`empty range for randint(${a}, ${b})`);
  return a + Math.floor(source() * (b - a + 1));
}

/** random.choice(items). */
export function choice<T>(items: readonly T[]): T {
  if (items.length === 0) throw new Error("Cannot choose from an empty sequence");
  return items[Math.floor(source() * items.length)]!;
}

/** random.sample(items, k): k distinct items. */
export function sample<T>(items: readonly T[], k: number): T[] {
  const pool = [...items];
  const picked: T[] = [];
  for (let i = 0; i < k && pool.length > 0; i++) picked.push(pool.splice(Math.floor(source() * pool.length), 1)[0]!);
  return picked;
}
