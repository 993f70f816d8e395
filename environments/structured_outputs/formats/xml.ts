// xmltodict.parse (expat underneath) with fast-xml-parser: {root: …}, "@attr" keys, "#text", repeated tags as lists.
// Well-formedness: fast-xml-parser's XMLValidator, plus the two lexical rules of expat's it lets through that are
// cheap to state exactly (characters XML forbids; "]]>" in text). README lists the rarer differences.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { pyStrip } from "../../sdk/python/text.js";
import { PyError, type PyDict, type PyValue } from "../python/value.js";

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  textNodeName: "#text",
  cdataPropName: "#cdata",
  commentPropName: "#comment",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // Entities are decoded below, where an undefined one fails as it does in expat.
  processEntities: false,
  htmlEntities: false,
});

type Ordered = Record<string, unknown>;
const PREDEFINED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** An ExpatError where the position is not known here (entity references) or comes from fast-xml-parser. */
function expat(message: string, line?: number, column?: number): PyError {
  return new PyError("ExpatError", line === undefined ? message : `${message}: line ${line}, column ${column ?? 0}`);
}

// C0 controls other than tab, newline and CR, U+FFFE/U+FFFF and lone surrogates are not XML characters anywhere.
const INVALID_CHARACTER = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** An ExpatError at an index of the text, with expat's "line N, column M" (column counted in code points from 0). */
function expatAt(text: string, message: string, index: number): PyError {
  const before = text.slice(0, index);
  return expat(message, before.split("\n").length, [...before.slice(before.lastIndexOf("\n") + 1)].length);
}

/** "]]>" may not stand in character data. */
function noCdataEnd(text: string): string {
  if (text.includes("]]>")) throw expat("not well-formed (invalid token)");
  return text;
}

function isXmlChar(cp: number): boolean {
  return cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

/** Character and predefined entity references; expat refuses any other entity (no DTD entities here). */
function decode(text: string): string {
  return text.replace(/&([^;&\s<]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(";") || name === "") throw expat("not well-formed (invalid token)");
    const numeric = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(name);
    if (numeric) {
      const cp = numeric[1] !== undefined ? parseInt(numeric[1], 16) : Number(numeric[2]);
      if (!isXmlChar(cp)) throw expat("reference to invalid character number");
      return String.fromCodePoint(cp);
    }
    const predefined = Object.hasOwn(PREDEFINED, name) ? PREDEFINED[name] : undefined;
    if (predefined === undefined) throw expat("undefined entity");
    return predefined;
  });
}

function tagOf(node: Ordered): string {
  return Object.keys(node).find((key) => key !== ":@")!;
}

/** xmltodict's push_data: a second value under the same key turns the entry into a list. */
function push(item: PyDict | null, key: string, value: PyValue): PyDict {
  const dict = item ?? new Map();
  const existing = dict.get(key);
  if (!dict.has(key)) dict.set(key, value);
  else if (Array.isArray(existing)) existing.push(value);
  else dict.set(key, [existing!, value]);
  return dict;
}

/** One element as xmltodict builds it: attributes and children in a dict, or just its stripped text (None if empty). */
function element(attributes: unknown, children: Ordered[]): PyValue {
  let item: PyDict | null = null;
  for (const [name, value] of Object.entries((attributes ?? {}) as Record<string, string>)) {
    // expat normalizes literal whitespace in attribute values to spaces before references are expanded.
    item = push(item, `@${name}`, decode(String(value).replace(/[\t\n]/g, " ")));
  }
  let data = "";
  for (const child of children) {
    const tag = tagOf(child);
    if (tag === "#text") data += decode(noCdataEnd(String(child[tag])));
    else if (tag === "#cdata") data += (child[tag] as Ordered[]).map((part) => String(part["#text"] ?? "")).join("");
    else if (tag === "#comment" || tag.startsWith("?")) continue;
    else item = push(item, tag, element(child[":@"], child[tag] as Ordered[]));
  }
  // Text chunks around child elements are joined, then stripped (strip_whitespace=True).
  const text = pyStrip(data) || null;
  if (item !== null) return text ? push(item, "#text", text) : item;
  return text;
}

/** xmltodict.parse(text) with its defaults. */
export function xmlToDict(source: string): PyValue {
  // expat turns \r\n and lone \r into \n before anything else sees the text.
  const text = source.replace(/\r\n?/g, "\n");
  const invalid = INVALID_CHARACTER.exec(text);
  if (invalid) throw expatAt(text, "not well-formed (invalid token)", invalid.index);
  // xmltodict's default disable_entities=True refuses entity declarations outright.
  if (/<!DOCTYPE[^>[]*\[[\s\S]*<!ENTITY/.test(text)) throw new PyError("ValueError", "entities are disabled");
  const valid = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (valid !== true) throw expat(valid.err.msg, valid.err.line, Math.max(0, (valid.err.col ?? 1) - 1));

  const roots = (parser.parse(text) as Ordered[]).filter((node) => {
    const tag = tagOf(node);
    return !tag.startsWith("?") && !tag.startsWith("#");
  });
  if (roots.length === 0) throw expat("no element found");
  if (roots.length > 1) throw expat("junk after document element");
  const root = roots[0]!;
  const name = tagOf(root);
  return new Map([[name, element(root[":@"], root[name] as Ordered[])]]);
}
