// json.loads values as hotpotqa_qa keeps them (int apart from float, dicts as pairs) and str() of them.
import { pyFloatRepr, pyReprStr } from "../sdk/python/index.js";

/** A value json.loads returns, with ints kept apart from floats (Python's str differs: 5 vs 5.0). */
export type PyJson = null | boolean | string | PyInt | number | PyJson[] | PyDict;
export class PyInt {
  constructor(readonly digits: string) {}
}
export class PyDict {
  constructor(readonly pairs: [string, PyJson][]) {}
  get(key: string): PyJson | undefined {
    return this.pairs.find(([k]) => k === key)?.[1];
  }
  has(key: string): boolean {
    return this.pairs.some(([k]) => k === key);
  }
}

/** pyJsonLoads' builder for PyJson: a repeated key keeps its first position and the last value, as dict() does. */
export const pyJsonBuild = {
  dict(pairs: [string, PyJson][]): PyJson {
    const merged = new Map<string, PyJson>();
    for (const [key, value] of pairs) merged.set(key, value);
    return new PyDict([...merged]);
  },
  number(raw: string, value: number): PyJson {
    return /^-?[0-9]+$/.test(raw) ? new PyInt(raw === "-0" ? "0" : raw) : value;
  },
};

function repr(value: PyJson): string {
  return typeof value === "string" ? pyReprStr(value) : pyStr(value);
}

/** Python's str() of a json.loads value. */
export function pyStr(value: PyJson): string {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") return value;
  if (typeof value === "number") return pyFloatRepr(value);
  if (value instanceof PyInt) return value.digits;
  if (Array.isArray(value)) return `[${value.map(repr).join(", ")}]`;
  return `{${value.pairs.map(([k, v]) => `${pyReprStr(k)}: ${repr(v)}`).join(", ")}}`;
}
