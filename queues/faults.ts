// Faults the chaos suite injects on purpose: a queue send or a bucket write refused at a given rate (never in a deployment).

/** A fault the chaos suite injected on purpose (a bucket write or a queue send refused). */
export class InjectedFault extends Error {
  override readonly name = "InjectedFault";
}

/** Throws an InjectedFault at the given rate (0–1; 0, the default everywhere outside the chaos suite, never throws). */
export function faultInjector(rate = 0, random: () => number = Math.random): (what: string) => void {
  return (what) => {
    if (rate > 0 && random() < rate) throw new InjectedFault(`injected fault: ${what}`);
  };
}
