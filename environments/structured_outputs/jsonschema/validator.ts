// jsonschema's Draft202012Validator (as openapi-schema-validator's OAS31Validator uses it): descend, is_valid, best_match.
import { PyError, isDict, pyRepr, type PyKey, type PyValue } from "../python/value.js";
import { KEYWORDS, isType } from "./keywords.js";
import { checkSchema } from "./metaschema.js";
import { Resolver } from "./resolver.js";

/** A ValidationError: message, path in the instance, and (set by descend) the keyword, instance and schema. */
export interface SchemaError {
  message: string;
  path: PyKey[];
  keyword?: string;
  instance?: PyValue;
  schema?: PyValue;
  /** The branch errors of an anyOf/oneOf that matched nothing. */
  context?: SchemaError[] | undefined;
}

// Python's recursion limit ends a $ref cycle with RecursionError; this cap plays that part.
const MAX_DEPTH = 500;

export class Validator {
  constructor(
    readonly resolver: Resolver,
    readonly base: string,
    private readonly depth = 0,
  ) {}

  /** Errors of `instance` under `schema`; `step` is the key or index when moving down the instance. */
  *descend(instance: PyValue, schema: PyValue, step?: PyKey): Generator<SchemaError> {
    const at = (error: SchemaError) => {
      if (step !== undefined) error.path.unshift(step);
      return error;
    };
    if (schema === true) return;
    if (schema === false) {
      yield at({ message: `False schema does not allow ${pyRepr(instance)}`, path: [], keyword: "", instance, schema });
      return;
    }
    if (!isDict(schema)) throw new PyError("AttributeError", "schema has no attribute 'items'");
    if (this.depth >= MAX_DEPTH) throw new PyError("RecursionError", "maximum recursion depth exceeded");
    const scope = new Validator(this.resolver, this.resolver.baseOf(schema) ?? this.base, this.depth + 1);
    for (const [keyword, value] of schema) {
      const check = typeof keyword === "string" ? KEYWORDS.get(keyword) : undefined;
      if (!check) continue;
      for (const error of check(scope, value, instance, schema)) {
        if (error.keyword === undefined) Object.assign(error, { keyword, instance, schema });
        yield at(error);
      }
    }
  }

  isValid(instance: PyValue, schema: PyValue): boolean {
    return this.descend(instance, schema).next().done === true;
  }

  /** The same validator with another base URI (after following a $ref into another resource). */
  at(base: string): Validator {
    return new Validator(this.resolver, base, this.depth + 1);
  }
}

/** Python's `<` between two path elements: str with str, int with int, anything else a TypeError. */
function compareKeys(a: PyKey, b: PyKey): number {
  if (typeof a !== typeof b || (typeof a !== "string" && typeof a !== "number")) {
    throw new PyError("TypeError", `'<' not supported between instances of '${typeof a}' and '${typeof b}'`);
  }
  return a === b ? 0 : (a as string | number) < (b as string | number) ? -1 : 1;
}

/** jsonschema's relevance key: (-len(path), path, not weak, in strong, not matches-type), compared as a tuple. */
function compareRelevance(a: SchemaError, b: SchemaError): number {
  if (a.path.length !== b.path.length) return b.path.length - a.path.length;
  for (let i = 0; i < a.path.length; i++) {
    const c = compareKeys(a.path[i]!, b.path[i]!);
    if (c !== 0) return c;
  }
  const weak = (e: SchemaError) => (e.keyword === "anyOf" || e.keyword === "oneOf" ? 0 : 1);
  if (weak(a) !== weak(b)) return weak(a) - weak(b);
  return (matchesType(a) ? 0 : 1) - (matchesType(b) ? 0 : 1);
}

function matchesType(error: SchemaError): boolean {
  if (!isDict(error.schema) || !error.schema.has("type")) return false;
  const expected = error.schema.get("type")!;
  const types = typeof expected === "string" ? [expected] : Array.isArray(expected) ? expected : [];
  return types.some((t) => isType(error.instance!, t));
}

/** best_match: the most relevant error (first of equals), then down an anyOf/oneOf's context while it is decisive. */
function bestMatch(errors: SchemaError[]): SchemaError | undefined {
  let best = errors.reduce<SchemaError | undefined>((top, e) => (top === undefined || compareRelevance(e, top) > 0 ? e : top), undefined);
  while (best?.context && best.context.length > 0) {
    const sorted = [...best.context].sort(compareRelevance);
    if (sorted.length >= 2 && compareRelevance(sorted[0]!, sorted[1]!) === 0) return best;
    best = sorted[0];
  }
  return best;
}

/**
 * openapi_schema_validator.validate(instance, schema) with its default OAS31Validator: the schema is checked
 * against the 2020-12 metaschema first (SchemaError), `format` is never asserted, then ValidationError.
 */
export function validate(instance: PyValue, schema: PyValue): void {
  checkSchema(schema);
  const resolver = new Resolver(schema);
  const errors = [...new Validator(resolver, resolver.rootBase).descend(instance, schema)];
  const best = bestMatch(errors);
  if (best) throw new PyError("ValidationError", best.message);
}
