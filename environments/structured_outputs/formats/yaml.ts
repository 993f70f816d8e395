// yaml.safe_load (PyYAML 6, YAML 1.1): the `yaml` package parses, PyYAML's resolver and SafeConstructor give the values.
import { type Alias, isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node, type Pair } from "yaml";
import { pyDate, pyDateTime } from "../python/datetime.js";
import { pyFloat, pyInt } from "../python/numbers.js";
import { PyError, PyOpaque, isDict, pyRepr, type PyDict, type PyKey, type PyValue } from "../python/value.js";

const TAG = "tag:yaml.org,2002:";

// PyYAML's implicit resolvers for plain scalars, in the order it tries them. YAML 1.1: `yes`/`off` are booleans,
// `0o17`/`1e3` are strings, `012` is octal, `1:30` is 90, and an unquoted 2024-05-10 is a date, not a string.
const IMPLICIT: [string, RegExp][] = [
  ["bool", /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/],
  [
    "float",
    /^(?:[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/,
  ],
  ["int", /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/],
  ["merge", /^<<$/],
  ["null", /^(?:~|null|Null|NULL|)$/],
  [
    "timestamp",
    /^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$/,
  ],
  ["value", /^=$/],
];
const TIMESTAMP =
  /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:(?:[Tt]|[ \t]+)([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9]{1,2})(?::([0-9]{2}))?))?)?$/;
// PyYAML's Reader refuses these characters anywhere in the stream.
const NON_PRINTABLE = /[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const BOOL_VALUES: Record<string, boolean> = { yes: true, no: false, true: true, false: false, on: true, off: false };

function constructorError(message: string): PyError {
  return new PyError("ConstructorError", message);
}

function sexagesimal(text: string, part: (s: string) => number): number {
  return text.split(":").reduceRight((acc, digits, i, all) => acc + part(digits) * 60 ** (all.length - 1 - i), 0);
}

function constructInt(raw: string): number {
  let value = raw.replaceAll("_", "");
  const sign = value[0] === "-" ? -1 : 1;
  if (value[0] === "-" || value[0] === "+") value = value.slice(1);
  if (value === "0") return 0;
  if (value.startsWith("0b")) return sign * pyInt(value.slice(2), 2);
  if (value.startsWith("0x")) return sign * pyInt(value.slice(2), 16);
  if (value === "") throw new PyError("IndexError", "string index out of range");
  if (value[0] === "0") return sign * pyInt(value, 8);
  if (value.includes(":")) return sign * sexagesimal(value, (s) => pyInt(s));
  return sign * pyInt(value);
}

function constructFloat(raw: string): number {
  let value = raw.replaceAll("_", "").toLowerCase();
  const sign = value[0] === "-" ? -1 : 1;
  if (value[0] === "-" || value[0] === "+") value = value.slice(1);
  if (value === ".inf") return sign * Infinity;
  if (value === ".nan") return NaN;
  if (value.includes(":")) return sign * sexagesimal(value, pyFloat);
  return sign * pyFloat(value);
}

function constructTimestamp(value: string): PyOpaque {
  const m = TIMESTAMP.exec(value);
  if (!m) throw new PyError("AttributeError", "'NoneType' object has no attribute 'groupdict'");
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (m[4] === undefined) return pyDate(year, month, day);
  const fraction = m[7] ? Number(m[7].slice(0, 6).padEnd(6, "0")) : 0;
  let offsetMinutes: number | undefined;
  if (m[9]) offsetMinutes = (m[9] === "-" ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11] ?? 0));
  else if (m[8] === "Z") offsetMinutes = 0;
  return pyDateTime({ year, month, day, hour: Number(m[4]), minute: Number(m[5]), second: Number(m[6]), microsecond: fraction, offsetMinutes });
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** base64.decodebytes (binascii.a2b_base64, non-strict): other characters skipped, padding ends the data. */
function constructBinary(value: string): PyOpaque {
  const bytes: number[] = [];
  let quad = 0;
  let pads = 0;
  let acc = 0;
  let done = false;
  for (const c of value) {
    if (c === "=") {
      done = quad >= 2 && quad + ++pads >= 4;
      if (done) break;
      continue;
    }
    const digit = BASE64.indexOf(c);
    if (digit < 0) continue;
    pads = 0;
    acc = (acc << 6) | digit;
    if (quad > 0) bytes.push((acc >> (6 - 2 * quad)) & 0xff);
    quad = (quad + 1) & 3;
  }
  if (quad === 1) throw constructorError("failed to decode base64 data: Invalid base64-encoded string");
  if (quad !== 0 && !done) throw constructorError("failed to decode base64 data: Incorrect padding");
  const text = bytes.map((b) =>
    b === 0x5c || b === 0x27
      ? `\\${String.fromCharCode(b)}`
      : b >= 0x20 && b < 0x7f
        ? String.fromCharCode(b)
        : b === 10
          ? "\\n"
          : b === 13
            ? "\\r"
            : b === 9
              ? "\\t"
              : `\\x${b.toString(16).padStart(2, "0")}`,
  );
  return new PyOpaque("bytes", `b'${text.join("")}'`);
}

/** The value of a scalar under a resolved or explicit tag (PyYAML's SafeConstructor). */
function constructScalar(tag: string, value: string): PyValue {
  switch (tag) {
    case `${TAG}str`:
      return value;
    case `${TAG}null`:
      return null;
    case `${TAG}bool`: {
      const b = Object.hasOwn(BOOL_VALUES, value.toLowerCase()) ? BOOL_VALUES[value.toLowerCase()] : undefined;
      if (b === undefined) throw new PyError("KeyError", pyRepr(value.toLowerCase()));
      return b;
    }
    case `${TAG}int`:
      return constructInt(value);
    case `${TAG}float`:
      return constructFloat(value);
    case `${TAG}timestamp`:
      return constructTimestamp(value);
    case `${TAG}binary`:
      return constructBinary(value);
    default:
      throw constructorError(`could not determine a constructor for the tag ${pyRepr(tag)}`);
  }
}

/** Python dict keys: True == 1 and equal dates are the same key. */
function sameKey(map: PyDict, key: PyKey): PyKey {
  for (const existing of map.keys()) {
    if (typeof key === "boolean" && typeof existing === "number" && existing === Number(key)) return existing;
    if (typeof key === "number" && typeof existing === "boolean" && key === Number(existing)) return existing;
    if (key instanceof PyOpaque && existing instanceof PyOpaque && key.repr === existing.repr) return existing;
  }
  return key;
}

function isHashable(value: PyValue): value is PyKey {
  return !Array.isArray(value) && !isDict(value) && !(value instanceof PyOpaque && value.pyType === "set");
}

type YamlNode = Node | null;

class Constructor {
  private readonly memo = new Map<Node, PyValue>();
  constructor(private readonly doc: Document) {}

  resolveAlias(node: YamlNode): YamlNode {
    if (!isAlias(node)) return node;
    const target = (node as Alias).resolve(this.doc);
    if (!target) throw new PyError("ComposerError", `found undefined alias ${pyRepr((node as Alias).source)}`);
    return target;
  }

  /** The tag PyYAML's composer gives a node: explicit, or resolved for plain scalars. */
  tagOf(node: YamlNode): string {
    if (node === null) return `${TAG}null`;
    const explicit = node.tag;
    if (explicit && explicit !== "!") return explicit;
    if (isMap(node)) return `${TAG}map`;
    if (isSeq(node)) return `${TAG}seq`;
    if (!isScalar(node) || explicit === "!" || node.type !== "PLAIN") return `${TAG}str`;
    const text = String(node.value);
    const hit = IMPLICIT.find(([, regex]) => regex.test(text));
    return `${TAG}${hit ? hit[0] : "str"}`;
  }

  construct(raw: YamlNode): PyValue {
    const node = this.resolveAlias(raw);
    if (node !== null && this.memo.has(node)) return this.memo.get(node)!;
    const tag = this.tagOf(node);
    if (node === null) return null;
    if (isScalar(node)) {
      if (tag === `${TAG}map` || tag === `${TAG}seq` || tag === `${TAG}set` || tag === `${TAG}omap` || tag === `${TAG}pairs`) {
        throw constructorError(`expected a ${tag.endsWith("map") || tag.endsWith("set") ? "mapping" : "sequence"} node, but found scalar`);
      }
      const value = constructScalar(tag, String(node.value));
      this.memo.set(node, value);
      return value;
    }
    if (isSeq(node)) {
      if (tag === `${TAG}omap` || tag === `${TAG}pairs`) return this.pairs(node.items as YamlNode[]);
      if (tag !== `${TAG}seq`) throw constructorError(`could not determine a constructor for the tag ${pyRepr(tag)}`);
      const list: PyValue[] = [];
      this.memo.set(node, list);
      for (const item of node.items as YamlNode[]) list.push(this.construct(item));
      return list;
    }
    if (isMap(node)) {
      if (tag !== `${TAG}map` && tag !== `${TAG}set`) throw constructorError(`could not determine a constructor for the tag ${pyRepr(tag)}`);
      const dict: PyDict = new Map();
      if (tag === `${TAG}map`) this.memo.set(node, dict);
      for (const [keyNode, valueNode] of this.flatten(node.items as Pair<YamlNode, YamlNode>[])) {
        // flatten_mapping retags a "=" key as a plain string; elsewhere "=" has no constructor.
        const key = this.tagOf(this.resolveAlias(keyNode)) === `${TAG}value` ? "=" : this.construct(keyNode);
        if (!isHashable(key)) throw constructorError("while constructing a mapping found unhashable key");
        dict.set(sameKey(dict, key), this.construct(valueNode));
      }
      if (tag === `${TAG}set`) return new PyOpaque("set", `{${[...dict.keys()].map((k) => pyRepr(k)).join(", ")}}`);
      return dict;
    }
    throw constructorError("unexpected node");
  }

  /** !!omap / !!pairs: a list of (key, value) tuples, which are not JSON arrays. */
  pairs(items: YamlNode[]): PyValue[] {
    return items.map((item) => {
      const node = this.resolveAlias(item);
      if (!isMap(node) || node.items.length !== 1) throw constructorError("expected a mapping of length 1");
      const pair = node.items[0] as Pair<YamlNode, YamlNode>;
      return new PyOpaque("tuple", `(${pyRepr(this.construct(pair.key))}, ${pyRepr(this.construct(pair.value))})`);
    });
  }

  /** PyYAML's flatten_mapping: `<<` merges mappings in front of the node's own pairs, so the own pairs win. */
  flatten(items: Pair<YamlNode, YamlNode>[]): [YamlNode, YamlNode][] {
    const merged: [YamlNode, YamlNode][] = [];
    const own: [YamlNode, YamlNode][] = [];
    for (const pair of items) {
      const keyNode = this.resolveAlias(pair.key);
      if (this.tagOf(keyNode) !== `${TAG}merge`) {
        own.push([pair.key, pair.value]);
        continue;
      }
      const value = this.resolveAlias(pair.value);
      if (isMap(value)) merged.push(...this.flatten(value.items as Pair<YamlNode, YamlNode>[]));
      else if (isSeq(value)) {
        const subs = (value.items as YamlNode[]).map((item) => {
          const sub = this.resolveAlias(item);
          if (!isMap(sub)) throw constructorError("expected a mapping for merging");
          return this.flatten(sub.items as Pair<YamlNode, YamlNode>[]);
        });
        for (const sub of subs.reverse()) merged.push(...sub);
      } else throw constructorError("expected a mapping or list of mappings for merging");
    }
    return [...merged, ...own];
  }
}

/** yaml.safe_load(text); throws a PyError on what PyYAML refuses. */
export function yamlSafeLoad(text: string): PyValue {
  const bad = NON_PRINTABLE.exec(text);
  if (bad) {
    const cp = bad[0].codePointAt(0)!;
    throw new PyError("ReaderError", `unacceptable character #x${cp.toString(16).padStart(4, "0")}: special characters are not allowed`);
  }
  // Failsafe, known tags unresolved: every scalar stays a string, so PyYAML's YAML 1.1 rules above decide types; keys may repeat.
  const doc = parseDocument(text, { schema: "failsafe", resolveKnownTags: false, uniqueKeys: false, merge: false, prettyErrors: false });
  const error = doc.errors[0];
  if (error) throw new PyError(error.code === "MULTIPLE_DOCS" ? "ComposerError" : "ScannerError", error.message);
  return new Constructor(doc).construct(doc.contents as YamlNode);
}
