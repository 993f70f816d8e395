// detectable_content:* — square-bracket placeholders and a postscript.
import { countOr, instruction, type InstructionSpec } from "./base.js";
import { compilePy } from "./util/pyregex.js";
import { PyError, ge, lower, strip } from "./util/python.js";
import { choice } from "./util/random.js";
import { countMatches, search } from "./util/text.js";

const PLACEHOLDER = /\[[^\n]*?\]/gu;

/** detectable_content:number_placeholders — at least N "[...]" placeholders on one line each. */
export const numberPlaceholders = instruction(["num_placeholders"], ({ num_placeholders }) => {
  const wanted = countOr(num_placeholders, 1, 4);
  return (response) => ge(countMatches(PLACEHOLDER, response), wanted);
});

/** detectable_content:postscript — a line with the marker (P.S., P.P.S or a given one, as a regex). */
export const postscript = instruction(["postscript_marker"], ({ postscript_marker }) => {
  const marker = typeof postscript_marker === "string" ? strip(postscript_marker) : (postscript_marker ?? choice(["P.S.", "P.P.S"]));
  let pattern: string;
  if (marker === "P.P.S") pattern = String.raw`\s*p\.\s?p\.\s?s.*$`;
  else if (marker === "P.S.") pattern = String.raw`\s*p\.\s?s\..*$`;
  else if (typeof marker === "string") pattern = `\\s*${lower(marker)}.*$`;
  else throw new PyError("AttributeError", "object has no attribute 'lower'");
  return (response) => search(compilePy(pattern, { multiline: true }).regex, lower(response));
});

export const DETECTABLE_CONTENT: Record<string, InstructionSpec> = {
  "detectable_content:number_placeholders": numberPlaceholders,
  "detectable_content:postscript": postscript,
};
