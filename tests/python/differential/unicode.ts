// Shared generators for the differential suite: strings weighted toward the characters where Python and JS differ.
import fc from "fast-check";

/** Characters where the two languages are known to disagree, or that sit on an edge of Python's rules. */
export const TRICKY = [
  "\ufeff",
  "\x85",
  "\x1c",
  "\x1d",
  "\x1e",
  "\x1f",
  "\u0130",
  "\u0131",
  "i",
  "I",
  "\u00df",
  "\u1e9e",
  "\u03a3",
  "\u03c3",
  "\u03c2",
  " ",
  "\t",
  "\n",
  "\r",
  "\v",
  "\f",
  "\r\n",
  "\u2028",
  "\u2029",
  "\u3000",
  "\u00a0",
  "\u200b",
  "\u180e",
  "a",
  "A",
  "z",
  "1",
  "0",
  "_",
  "-",
  "+",
  ".",
  "'",
  '"',
  "\\",
  "\u0661",
  "\u00b2",
  "\u00bd",
  "\u4e94",
  "\u2460",
  "\u{1f600}",
  "\u{1d7d8}",
  "\u01c5",
  "\ufb03",
  "\u0149",
  "\u0345",
  "\u017f",
  "\u212a",
  "\u13a0",
  "\uab70",
  "\u0390",
  "\u1fd3",
  "\u0307",
  "\u00e9",
  "e\u0301",
  "\x7f",
  "\x00",
  "\u{10400}",
];

/** Every code point but surrogates, optionally only those CPython's Unicode version has assigned. */
export function codePoint(assigned: (cp: number) => boolean = () => true): fc.Arbitrary<string> {
  return fc
    .integer({ min: 0, max: 0x10ffff })
    .filter((cp) => (cp < 0xd800 || cp > 0xdfff) && assigned(cp))
    .map((cp) => String.fromCodePoint(cp));
}

/** A string of up to `max` pieces, most from TRICKY, some from the BMP's and the whole range's assigned characters. */
export function pyText(assigned: (cp: number) => boolean = () => true, max = 12): fc.Arbitrary<string> {
  const piece = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...TRICKY) },
    {
      weight: 2,
      arbitrary: fc
        .integer({ min: 0x20, max: 0x24f })
        .filter((cp) => assigned(cp))
        .map((cp) => String.fromCodePoint(cp)),
    },
    { weight: 1, arbitrary: codePoint(assigned) },
  );
  return fc.array(piece, { maxLength: max }).map((pieces) => pieces.join(""));
}

/** Sorted [start, end] ranges as a membership test. */
export function inRanges(ranges: [number, number][]): (cp: number) => boolean {
  return (cp) => {
    let lo = 0;
    let hi = ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [start, end] = ranges[mid]!;
      if (cp < start) hi = mid - 1;
      else if (cp > end) lo = mid + 1;
      else return true;
    }
    return false;
  };
}
