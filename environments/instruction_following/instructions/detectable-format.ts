// detectable_format:* — bullets, highlights, sections, JSON, titles, fixed answers, and word wrapping games.
import { countOr, instruction, type InstructionSpec } from "./base.js";
import { isValidPythonJson } from "./util/json.js";
import { compilePy } from "./util/pyregex.js";
import { WS, eq, ge, lstrip, removePrefix, removeSuffix, requireStr, rstrip, split, strip } from "./util/python.js";
import { choice } from "./util/random.js";
import { countMatches, finditer, splitIntoSentences } from "./util/text.js";

const STAR_BULLET = new RegExp(`(?:^|(?<=\\n))[${WS}]*\\*[^*][^\\n]*(?=\\n|$)`, "gu");
const DASH_BULLET = new RegExp(`(?:^|(?<=\\n))[${WS}]*-[^\\n]*(?=\\n|$)`, "gu");

/** detectable_format:number_bullet_lists — exactly N lines starting with "* " or "-" bullets. */
export const numberBulletLists = instruction(["num_bullets"], ({ num_bullets }) => {
  const wanted = countOr(num_bullets, 1, 5);
  return (response) => eq(countMatches(STAR_BULLET, response) + countMatches(DASH_BULLET, response), wanted);
});

const CONSTRAINED_OPTIONS = ["My answer is yes.", "My answer is no.", "My answer is maybe."];

/** detectable_format:constrained_response — contains one of the three fixed answers. */
export const constrainedResponse = instruction([], () => (response) => {
  const value = strip(response);
  return CONSTRAINED_OPTIONS.some((option) => value.includes(option));
});

/** detectable_format:number_highlighted_sections — at least N non-empty *single* or **double** highlights. */
export const numberHighlightedSections = instruction(["num_highlights"], ({ num_highlights }) => {
  const wanted = countOr(num_highlights, 1, 4);
  return (response) => {
    let count = 0;
    for (const { text } of finditer(/\*[^\n*]*\*/gu, response)) if (strip(strip(text, "*"))) count++;
    for (const { text } of finditer(/\*\*[^\n*]*\*\*/gu, response)) if (strip(removeSuffix(removePrefix(text, "**"), "**"))) count++;
    return ge(count, wanted);
  };
});

/** detectable_format:multiple_sections — at least N "<splitter> <number>" section marks (the splitter is a regex). */
export const multipleSections = instruction(["section_spliter", "num_sections"], ({ section_spliter, num_sections }) => {
  const splitter = typeof section_spliter === "string" ? strip(section_spliter) : (section_spliter ?? choice(["Section", "SECTION"]));
  const wanted = countOr(num_sections, 1, 5);
  return (response) => {
    const { regex, groups } = compilePy(String.raw`\s?` + requireStr(splitter, "can only concatenate str") + String.raw`\s?\d+\s?`);
    return ge(finditer(regex, response).length * (1 + groups), wanted);
  };
});

/** detectable_format:json_format — the response, less markdown fences, is JSON (as Python's json.loads reads it). */
export const jsonFormat = instruction([], () => (response) => {
  let value = strip(response);
  for (const prefix of ["```json", "```Json", "```JSON", "```"]) value = removePrefix(value, prefix);
  return isValidPythonJson(strip(removeSuffix(value, "```")));
});

/** detectable_format:title — a non-empty <<title>> on one line. */
export const title = instruction([], () => (response) => finditer(/<<[^\n]+>>/gu, response).some(({ text }) => strip(rstrip(lstrip(text, "<"), ">")) !== ""));

/** detectable_format:sentence_hyphens — sentences joined by "-" with no spaces around them. */
export const sentenceHyphens = instruction([], () => (response) => {
  const gold = splitIntoSentences(response.replaceAll("-", " "));
  const pieces = response.split("-");
  for (let i = 0; i < Math.min(pieces.length, gold.length); i++) {
    if (strip(pieces[i]!) !== pieces[i] || pieces[i] !== gold[i]) return false;
  }
  return true;
});

/** detectable_format:square_brackets — every whitespace-separated word is [wrapped]. */
export const squareBrackets = instruction([], () => (response) => split(response).every((word) => word.startsWith("[") && word.endsWith("]")));

/** detectable_format:bigram_wrapping — words paired as <<first second>>. */
export const bigramWrapping = instruction([], () => (response) => {
  const words = split(response);
  for (let i = 0; i + 1 < words.length; i += 2) {
    if (!(words[i]!.startsWith("<<") && words[i + 1]!.endsWith(">>"))) return false;
  }
  return true;
});

export const DETECTABLE_FORMAT: Record<string, InstructionSpec> = {
  "detectable_format:number_bullet_lists": numberBulletLists,
  "detectable_format:constrained_response": constrainedResponse,
  "detectable_format:number_highlighted_sections": numberHighlightedSections,
  "detectable_format:multiple_sections": multipleSections,
  "detectable_format:json_format": jsonFormat,
  "detectable_format:title": title,
  "detectable_format:sentence_hyphens": sentenceHyphens,
  "detectable_format:square_brackets": squareBrackets,
  "detectable_format:bigram_wrapping": bigramWrapping,
};
