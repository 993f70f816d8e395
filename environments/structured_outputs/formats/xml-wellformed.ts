// The lexical well-formedness rules expat enforces and fast-xml-parser's validator lets through (declaration, PIs, markup, junk).
import { PyError } from "../python/value.js";

const NAME_START = ":A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}";
const NAME = `[${NAME_START}][${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040]*`;
// expat takes any version made of name characters ("1.", "2.0", even ""); encoding and standalone are checked.
const DECLARATION = /^<\?xml\s+version\s*=\s*(["'])[A-Za-z0-9_.-]*\1(?:\s+encoding\s*=\s*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:\s+standalone\s*=\s*(["'])(?:yes|no)\3)?\s*\?>/;
const START_TAG = new RegExp(`<(${NAME})(?:\\s+${NAME}\\s*=\\s*(?:"[^<"]*"|'[^<']*'))*\\s*(/?)>`, "uy");
const END_TAG = new RegExp(`</(${NAME})\\s*>`, "uy");
const PI_TARGET = new RegExp(`<\\?(${NAME})(?=\\s|\\?>)`, "uy");
const DOCTYPE = new RegExp(`<!DOCTYPE\\s+${NAME}(?=[\\s[>])`, "uy");

/** An ExpatError at a position, with expat's "line N, column M" (column counted from 0). */
export function expatError(text: string, message: string, index: number): PyError {
  const before = text.slice(0, index);
  const line = before.split("\n").length;
  const column = [...before.slice(before.lastIndexOf("\n") + 1)].length;
  return new PyError("ExpatError", `${message}: line ${line}, column ${column}`);
}

/** Character data between markup: at the top level only whitespace; never "]]>"; "&" only as a reference. */
function checkText(text: string, start: number, end: number, depth: number, rootClosed: boolean): void {
  const run = text.slice(start, end);
  if (depth === 0 && /\S/.test(run)) {
    const at = start + run.search(/\S/);
    throw expatError(text, rootClosed ? "junk after document element" : "syntax error", at);
  }
  const close = run.indexOf("]]>");
  if (close >= 0) throw expatError(text, "not well-formed (invalid token)", start + close);
  const amp = /&(?![A-Za-z_:][\w.:-]*;|#[0-9]+;|#x[0-9a-fA-F]+;)/.exec(run);
  if (amp) throw expatError(text, "not well-formed (invalid token)", start + amp.index);
}

// An internal DTD subset holds only markup declarations, comments, PIs and parameter-entity references.
const SUBSET = new RegExp(`(?:\\s+|<!--[\\s\\S]*?-->|<\\?[\\s\\S]*?\\?>|<!(?:ELEMENT|ATTLIST|ENTITY|NOTATION)\\s(?:"[^"]*"|'[^']*'|[^>"'])*>|%${NAME};)*`, "uy");

/** Where a <!DOCTYPE …> starting at `start` ends (its ">"), checking an internal subset's shape. */
function doctypeEnd(text: string, start: number): number {
  const bracket = text.indexOf("[", start);
  const gt = text.indexOf(">", start);
  if (gt < 0) throw expatError(text, "unclosed token", start);
  if (bracket < 0 || bracket > gt) return gt;
  SUBSET.lastIndex = bracket + 1;
  SUBSET.exec(text);
  const close = /^\]\s*>/.exec(text.slice(SUBSET.lastIndex));
  if (!close) throw expatError(text, "syntax error", SUBSET.lastIndex);
  return SUBSET.lastIndex + close[0].length - 1;
}

/**
 * Throws PyError("ExpatError") for the first lexical error expat would report (tag nesting is checked elsewhere).
 * Returns the text without its declaration, DOCTYPE, comments and processing instructions, which xmltodict ignores
 * and which fast-xml-parser need not see (it trips on quotes inside a PI).
 */
export function checkWellFormed(text: string): string {
  let i = 0;
  let kept = "";
  if (/^<\?xml[\s?]/.test(text)) {
    const declaration = DECLARATION.exec(text);
    if (!declaration) throw expatError(text, "XML declaration not well-formed", 6);
    i = declaration[0].length;
  }
  let depth = 0;
  let rootSeen = false;
  let rootClosed = false;
  while (i < text.length) {
    const lt = text.indexOf("<", i);
    checkText(text, i, lt < 0 ? text.length : lt, depth, rootClosed);
    kept += text.slice(i, lt < 0 ? text.length : lt);
    if (lt < 0) break;
    i = lt;
    const rest = text.slice(i, i + 9);
    let end: number;
    if (rest.startsWith("<!--")) {
      end = text.indexOf("-->", i + 4);
      if (end < 0) throw expatError(text, "unclosed token", i);
      if (text.slice(i + 4, end).includes("--") || text[end - 1] === "-") throw expatError(text, "not well-formed (invalid token)", i);
      i = end + 3;
    } else if (rest.startsWith("<![CDATA[")) {
      if (depth === 0) throw expatError(text, "not well-formed (invalid token)", i);
      end = text.indexOf("]]>", i + 9);
      if (end < 0) throw expatError(text, "unclosed CDATA section", i);
      kept += text.slice(i, end + 3);
      i = end + 3;
    } else if (rest.startsWith("<!DOCTYPE")) {
      DOCTYPE.lastIndex = i;
      if (rootSeen || !DOCTYPE.test(text)) throw expatError(text, rootSeen ? "not well-formed (invalid token)" : "syntax error", i);
      end = doctypeEnd(text, i);
      i = end + 1;
    } else if (rest.startsWith("<!")) {
      throw expatError(text, "not well-formed (invalid token)", i);
    } else if (rest.startsWith("<?")) {
      PI_TARGET.lastIndex = i;
      const target = PI_TARGET.exec(text);
      if (!target) throw expatError(text, "not well-formed (invalid token)", i + 2);
      if (target[1]!.toLowerCase() === "xml") throw expatError(text, "XML or text declaration not at start of entity", i);
      end = text.indexOf("?>", i);
      if (end < 0) throw expatError(text, "unclosed token", i);
      i = end + 2;
    } else {
      const closing = rest.startsWith("</");
      const tag = closing ? END_TAG : START_TAG;
      tag.lastIndex = i;
      const match = tag.exec(text);
      if (!match) throw expatError(text, "not well-formed (invalid token)", i + (closing ? 2 : 1));
      if (!closing && rootClosed) throw expatError(text, "junk after document element", i);
      if (closing) {
        depth--;
        rootClosed ||= depth === 0;
      } else {
        rootSeen = true;
        if (match[2] === "/") rootClosed ||= depth === 0;
        else depth++;
      }
      kept += text.slice(i, tag.lastIndex);
      i = tag.lastIndex;
    }
  }
  if (!rootSeen || depth > 0) throw expatError(text, "no element found", text.length);
  return kept;
}
