// `edgegym env schema <name>`: an environment's tools as a row offers them, and (--row) a skeleton row to fill in.
import type { LoadedEnvironment } from "./environment-runner.js";

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);

/** A JSON schema node in a few words: `string`, `array of integer`, `one of: a, b`, `string | null`. */
export function describeType(schema: unknown): string {
  if (!isSchema(schema)) return "any";
  if (Array.isArray(schema.enum)) return `one of: ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  if ("const" in schema) return JSON.stringify(schema.const);
  const branches = [schema.anyOf, schema.oneOf].find(Array.isArray) as unknown[] | undefined;
  if (branches) return [...new Set(branches.map(describeType))].join(" | ");
  const types = Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === "string" ? [schema.type] : [];
  if (types.length === 0) return isSchema(schema.$ref) || typeof schema.$ref === "string" ? "object" : "any";
  return types.map((type) => (type === "array" && isSchema(schema.items) ? `array of ${describeType(schema.items)}` : type)).join(" | ");
}

/**
 * A row for the environment with every part a user fills in shown as a placeholder: the input, and each task field as
 * `<its type>` (`, optional` when the environment does not require it). The tools are the environment's, as served.
 */
export function skeletonRow(environment: Pick<LoadedEnvironment, "offered" | "taskSchema">): Record<string, unknown> {
  const task = environment.taskSchema();
  const properties = isSchema(task.properties) ? task.properties : {};
  const required = new Set(Array.isArray(task.required) ? task.required.map(String) : []);
  const fields = Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => [name, `<${describeType(schema)}${required.has(name) ? "" : ", optional"}>`]),
  );
  return {
    responses_create_params: {
      input: [{ role: "user", content: "<the prompt>" }],
      ...(environment.offered.length ? { tools: environment.offered } : {}),
    },
    ...fields,
  };
}
