// workerd's RPC sends plain data only: an object whose prototype is not Object's (a null-prototype record, as a Python
// dict parsed faithfully is) fails the whole call with "Could not serialize object of type Object". An operation's
// answer is made plain before it crosses: copied only where such a record is, the rest returned as it is.

function plainRecord(record: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    // "__proto__" is an ordinary key of such a record: defined, not assigned (an assignment would set the prototype).
    Object.defineProperty(copy, key, { value: plainData(record[key]), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

export function plainData(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = plainData(value[i]);
      if (item !== value[i]) (copy ??= value.slice())[i] = item;
    }
    return copy ?? value;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype === null) return plainRecord(value as Record<string, unknown>);
  // Dates, typed arrays, streams and the like are the runtime's to send (or refuse) as they are.
  if (prototype !== Object.prototype) return value;
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const item = plainData(record[key]);
    if (item !== record[key]) (copy ??= { ...record })[key] = item;
  }
  return copy ?? value;
}
