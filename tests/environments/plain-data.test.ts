// An operation's answer crosses workerd's RPC only as plain data: null-prototype records are copied into plain objects.
import { describe, expect, it } from "vitest";
import { plainData } from "../../environments/sdk/plain.js";

const record = (entries: Record<string, unknown>) => Object.assign(Object.create(null) as Record<string, unknown>, entries);

describe("plainData", () => {
  it("copies null-prototype records, however deep, into plain objects with the same keys and values", () => {
    const parsed = { reward: 1, calls: [{ name: "f", arguments: record({ a: 1, nested: record({ b: [record({ c: "x" })] }) }) }] };
    const plain = plainData(parsed) as typeof parsed;
    expect(plain).toEqual({ reward: 1, calls: [{ name: "f", arguments: { a: 1, nested: { b: [{ c: "x" }] } } }] });
    const walk = (value: unknown): void => {
      if (value === null || typeof value !== "object") return;
      if (!Array.isArray(value)) expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      for (const item of Object.values(value)) walk(item);
    };
    walk(plain);
    // structuredClone is what workerd's RPC serializer is stricter than; at least the copy is cloneable and equal.
    expect(structuredClone(plain)).toEqual(plain);
  });

  it("keeps a `__proto__` key as an ordinary key (as Python's dict has it), not as the prototype", () => {
    const plain = plainData(record({ ["__proto__"]: { polluted: true }, ok: 1 })) as Record<string, unknown>;
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(Object.keys(plain)).toEqual(["__proto__", "ok"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("returns plain data as it is, without copying", () => {
    const body = { reward: 0.5, items: [{ a: [1, 2, { b: null }] }], text: "x" };
    expect(plainData(body)).toBe(body);
    expect(plainData("s")).toBe("s");
    expect(plainData(null)).toBe(null);
  });
});
