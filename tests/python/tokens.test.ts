// countTokens gives Python tiktoken's counts (recorded in tests/fixtures/tiktoken/counts.json) on every recorded text.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { countTokens, encodeOrdinary, type TokenEncoding } from "../../environments/sdk/python/tokens.js";

interface Row {
  text: string;
  cl100k_base: number;
  o200k_base: number;
}
const { rows } = JSON.parse(readFileSync(new URL("../fixtures/tiktoken/counts.json", import.meta.url), "utf8")) as {
  rows: Row[];
};
const ENCODINGS: TokenEncoding[] = ["cl100k_base", "o200k_base"];

describe("countTokens matches tiktoken", () => {
  it("has a fixture worth checking", () => {
    expect(rows.length).toBeGreaterThan(400);
  });

  for (const encoding of ENCODINGS) {
    it(`${encoding}: every recorded text counts as tiktoken counted it`, () => {
      const differences = rows
        .map((row) => ({ text: row.text, tiktoken: row[encoding], ours: countTokens(row.text, encoding) }))
        .filter((row) => row.tiktoken !== row.ours);
      expect(differences).toEqual([]);
    });
  }

  it("splits where Rust's \\s differs from JavaScript's: the BOM is not whitespace, U+0085 is", () => {
    // Recorded from tiktoken: a JavaScript `\s` would glue the BOM to the spaces before it.
    const bom = rows.find((row) => row.text === "\ufeffBOM start");
    const nel = rows.find((row) => row.text === "x\x85y");
    expect(bom && countTokens(bom.text, "cl100k_base")).toBe(bom?.cl100k_base);
    expect(nel && countTokens(nel.text, "o200k_base")).toBe(nel?.o200k_base);
  });

  it("counts a special token's text as ordinary text, as encode_ordinary does", () => {
    expect(encodeOrdinary("<|endoftext|>", "cl100k_base")).not.toContain(100257);
    expect(countTokens("<|endoftext|>", "cl100k_base")).toBeGreaterThan(1);
  });

  it("names the encodings it knows when asked for another", () => {
    expect(() => countTokens("x", "gpt2" as TokenEncoding)).toThrow(/unknown encoding "gpt2" \(known: cl100k_base, o200k_base\)/);
  });
});
