// $ref resolution for one Draft 2020-12 schema: $id resources, $anchor names and JSON pointers (the `referencing` library's job).
import { PyError, isDict, type PyDict, type PyValue } from "../python/value.js";

// Where 2020-12 keeps subschemas (referencing's subresources_of), so $id and $anchor are found where they count.
const IN_VALUE = ["additionalProperties", "contains", "contentSchema", "else", "if", "items", "not", "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties"];
const IN_ARRAY = ["allOf", "anyOf", "oneOf", "prefixItems"];
const IN_VALUES = ["$defs", "definitions", "dependentSchemas", "patternProperties", "properties"];

export interface Resolved {
  schema: PyValue;
  base: string;
}

function unresolvable(ref: string): PyError {
  return new PyError("_WrappedReferencingError", `Unresolvable: ${ref}`);
}

/** urljoin(base, ref), enough for JSON Schema: fragments, absolute URIs, and paths relative to the base. */
export function joinUri(base: string, ref: string): string {
  if (ref.startsWith("#")) return base + ref;
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(ref)) return new URL(ref).href;
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(base)) return new URL(ref, base).href;
  return base.replace(/[^/]*$/, "") + ref;
}

export class Resolver {
  private readonly resources = new Map<string, PyValue>();
  private readonly anchors = new Map<string, PyValue>();
  private readonly bases = new WeakMap<PyDict, string>();
  readonly rootBase: string;

  constructor(root: PyValue) {
    this.rootBase = this.idOf(root, "") ?? "";
    this.resources.set(this.rootBase, root);
    this.walk(root, this.rootBase);
  }

  private idOf(schema: PyValue, base: string): string | undefined {
    const id = isDict(schema) ? schema.get("$id") : undefined;
    return typeof id === "string" ? joinUri(base, id).replace(/#$/, "") : undefined;
  }

  private walk(schema: PyValue, parentBase: string): void {
    if (!isDict(schema)) return;
    const id = this.idOf(schema, parentBase);
    const base = id ?? parentBase;
    if (id !== undefined) this.resources.set(id, schema);
    this.bases.set(schema, base);
    for (const keyword of ["$anchor", "$dynamicAnchor"]) {
      const name = schema.get(keyword);
      if (typeof name === "string") this.anchors.set(`${base}#${name}`, schema);
    }
    for (const keyword of IN_VALUE) if (schema.has(keyword)) this.walk(schema.get(keyword)!, base);
    for (const keyword of IN_ARRAY) {
      const list = schema.get(keyword);
      if (Array.isArray(list)) for (const sub of list) this.walk(sub, base);
    }
    for (const keyword of IN_VALUES) {
      const map = schema.get(keyword);
      if (isDict(map)) for (const sub of map.values()) this.walk(sub, base);
    }
  }

  /** The base URI in effect inside a schema (its own $id, else its parent's). */
  baseOf(schema: PyDict): string | undefined {
    return this.bases.get(schema);
  }

  lookup(ref: string, base: string): Resolved {
    const uri = joinUri(base, ref);
    const hash = uri.indexOf("#");
    const document = hash < 0 ? uri : uri.slice(0, hash);
    const fragment = hash < 0 ? "" : decodeURIComponent(uri.slice(hash + 1));
    const resource = this.resources.get(document);
    if (resource === undefined) throw unresolvable(ref);
    if (fragment === "") return { schema: resource, base: document };
    if (!fragment.startsWith("/")) {
      const anchored = this.anchors.get(`${document}#${fragment}`);
      if (anchored === undefined) throw unresolvable(ref);
      return { schema: anchored, base: document };
    }
    let target: PyValue | undefined = resource;
    for (const raw of fragment.slice(1).split("/")) {
      const segment = raw.replaceAll("~1", "/").replaceAll("~0", "~");
      if (isDict(target)) target = target.has(segment) ? target.get(segment) : undefined;
      else if (Array.isArray(target) && /^(?:0|[1-9][0-9]*)$/.test(segment)) target = target[Number(segment)];
      else target = undefined;
      if (target === undefined) throw unresolvable(ref);
    }
    return { schema: target, base: (isDict(target) && this.bases.get(target)) || document };
  }
}
