// Python's truthiness and == on JSON-like values (bool is an int, 1 == 1.0 == True, big ints exact, containers item by item).

/** A Python number's value: numbers, and booleans as 0 and 1; undefined for anything else. */
export type AsNumber = (value: unknown) => number | undefined;

const plainNumber: AsNumber = (value) => (typeof value === "number" ? value : typeof value === "boolean" ? Number(value) : undefined);

/** An exact int (bigint) against a number or bool: equal only when the number is that integer. */
function bigintEquals(big: bigint, other: unknown, asNumber: AsNumber): boolean {
  if (typeof other === "bigint") return big === other;
  const n = asNumber(other);
  return n !== undefined && Number.isInteger(n) && BigInt(n) === big;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Python's `a == b` between two items of containers: identity first, as CPython's list and dict comparison does. Every
 * NaN that `json.loads` makes is one object (its parse_constant hands out the same `float('nan')`), so two parsed NaN
 * items are the same object: `json.loads("[NaN]") == json.loads("[NaN]")` is True, where `nan == nan` is False.
 */
export function pyItemEqual(a: unknown, b: unknown, asNumber: AsNumber = plainNumber): boolean {
  if (typeof a === "number" && typeof b === "number" && Number.isNaN(a) && Number.isNaN(b)) return true;
  return pyEqual(a, b, asNumber);
}

/**
 * Python's `a == b`. Containers compare items by identity first, as CPython does (so a list holding NaN equals
 * itself, and one parsed NaN equals another: `pyItemEqual`); undefined counts as None. `asNumber` lets a caller's own
 * float wrapper compare as its value.
 */
export function pyEqual(a: unknown, b: unknown, asNumber: AsNumber = plainNumber): boolean {
  if (a === b && typeof a === "object") return true;
  if (typeof a === "bigint") return bigintEquals(a, b, asNumber);
  if (typeof b === "bigint") return bigintEquals(b, a, asNumber);
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== undefined || y !== undefined) return x === y;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => pyItemEqual(v, b[i], asNumber));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && pyItemEqual(a[k], b[k], asNumber));
  }
  return (a ?? null) === (b ?? null);
}

/** Python truthiness of a JSON value: None, False, 0, "", [] and {} are false. */
export function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === 0n || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}
