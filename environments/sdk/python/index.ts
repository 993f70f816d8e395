// Python's semantics for verifiers, in one place: environments import this module (`../sdk/python/index.js`).
export * from "./errors.js";
export * from "./findall.js";
export * from "./json.js";
export * from "./json-dumps.js";
export * from "./json-value.js";
export * from "./numbers.js";
export * from "./numbers-round.js";
export * from "./order.js";
export * from "./regex.js";
export * from "./repr.js";
export * from "./text.js";
export * from "./text-case.js";
export * from "./text-index.js";
export * from "./text-props.js";
export * from "./values.js";
export * from "./match.js";
