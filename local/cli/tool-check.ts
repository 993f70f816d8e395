// A row's offered tools against the environment's own: none offered, a tool it does not serve, or parameters that differ.
import { MCP_CLIENT_ROWS } from "../environments.js";
import { type DatasetRow, type FunctionTool, isFunctionTool } from "../../protocol/index.js";
import { servesConversation } from "../../protocol/agents.js";
import type { LoadedEnvironment } from "./environment-runner.js";

export interface ToolProblem {
  path: string;
  message: string;
}

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);

/** The JSON types a schema node allows (`type`, or the union of its anyOf/oneOf branches); empty: any. */
function typesOf(schema: Schema): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === "string").sort();
  const branches = [schema.anyOf, schema.oneOf].find(Array.isArray) as unknown[] | undefined;
  if (!branches) return [];
  const types = branches.filter(isSchema).map(typesOf);
  // A branch that allows anything makes the whole node allow anything.
  if (types.some((t) => t.length === 0)) return [];
  return [...new Set(types.flat())].sort();
}

const names = (schema: Schema): string[] => (isSchema(schema.properties) ? Object.keys(schema.properties) : []);
const required = (schema: Schema): string[] => (Array.isArray(schema.required) ? schema.required.map(String).sort() : []);
const branchOf = (schema: Schema, type: string): Schema | undefined =>
  [schema.anyOf, schema.oneOf]
    .filter(Array.isArray)
    .flat()
    .filter(isSchema)
    .find((branch) => typesOf(branch).includes(type));
/** The node's object (or array) form: itself, or the anyOf branch that is one (a nullable object). */
const formOf = (schema: Schema, type: string): Schema | undefined => (schema.type === type ? schema : branchOf(schema, type));

/**
 * What differs between the parameters a row offers and the ones the tool takes, in what the model's call depends on:
 * parameter names, their types, which are required, nested objects and array items. Titles, descriptions and bounds
 * (NeMo Gym's rows carry Pydantic's titles; zod writes integer bounds) are the row's own business.
 */
export function schemaDifferences(offered: Schema, served: Schema, at: string, what: string): ToolProblem[] {
  const problems: ToolProblem[] = [];
  const theirs = typesOf(served);
  const ours = typesOf(offered);
  if (theirs.length && ours.length && theirs.join("|") !== ours.join("|")) {
    problems.push({ path: `${at}.type`, message: `${ours.join(" | ")}, but ${what} is ${theirs.join(" | ")}` });
    return problems;
  }
  const servedObject = formOf(served, "object");
  const offeredObject = formOf(offered, "object");
  if (servedObject && offeredObject) {
    const known = names(servedObject);
    const given = names(offeredObject);
    for (const name of given.filter((n) => !known.includes(n))) {
      problems.push({ path: `${at}.properties.${name}`, message: `${what} has no parameter "${name}" (its parameters: ${known.join(", ") || "none"})` });
    }
    for (const name of known.filter((n) => !given.includes(n))) {
      problems.push({ path: `${at}.properties`, message: `"${name}" is missing: ${what} takes it` });
    }
    const shared = known.filter((n) => given.includes(n));
    const wanted = required(servedObject);
    const marked = required(offeredObject);
    if (given.length && known.length && wanted.join(",") !== marked.join(",")) {
      problems.push({ path: `${at}.required`, message: `[${marked.join(", ")}], but ${what} requires [${wanted.join(", ")}]` });
    }
    const props = (schema: Schema) => schema.properties as Record<string, unknown>;
    for (const name of shared) {
      const [mine, theirsNode] = [props(offeredObject)[name], props(servedObject)[name]];
      if (isSchema(mine) && isSchema(theirsNode)) problems.push(...schemaDifferences(mine, theirsNode, `${at}.properties.${name}`, `${what}'s "${name}"`));
    }
  }
  const servedArray = formOf(served, "array");
  const offeredArray = formOf(offered, "array");
  if (servedArray && offeredArray && isSchema(servedArray.items) && isSchema(offeredArray.items)) {
    problems.push(...schemaDifferences(offeredArray.items, servedArray.items, `${at}.items`, `the items of ${what}`));
  }
  return problems;
}

/**
 * An environment that serves tools needs a row that offers some (a subset is a row's choice: NeMo Gym's rows offer all
 * of them, but a curriculum may not), each one it serves, with its parameters. One without tools of its own (xlam_fc,
 * structured_outputs) only reads the model's calls in verify: any tool, or none, may be offered.
 */
export function toolProblems(environment: Pick<LoadedEnvironment, "name" | "offered">, row: DatasetRow): ToolProblem[] {
  if (environment.offered.length === 0) return [];
  // A conversation environment's routes are the agent's, not the model's: the row brings the tools it simulates.
  if (servesConversation(environment.offered.map((tool) => tool.name))) return [];
  const served = new Map(environment.offered.map((tool) => [tool.name, tool]));
  const list = [...served.keys()].join(", ");
  const tools = row.responses_create_params.tools ?? [];
  // Rows for an MCP client harness offer none: the harness lists the tools over the environment's /mcp.
  if (tools.length === 0 && MCP_CLIENT_ROWS.has(environment.name)) return [];
  if (tools.length === 0) {
    return [
      {
        path: "responses_create_params.tools",
        message: `the row offers no tools, so the model cannot call ${environment.name}'s (${list}): \`edgegym env schema ${environment.name}\` prints them as a row offers them`,
      },
    ];
  }
  const problems: ToolProblem[] = [];
  tools.forEach((tool, i) => {
    if (!isFunctionTool(tool)) return;
    const own: FunctionTool | undefined = served.get(tool.name);
    if (!own) {
      problems.push({ path: `responses_create_params.tools.${i}.name`, message: `"${tool.name}" is not a tool of ${environment.name} (its tools: ${list})` });
      return;
    }
    if (isSchema(own.parameters) && isSchema(tool.parameters)) {
      problems.push(...schemaDifferences(tool.parameters, own.parameters, `responses_create_params.tools.${i}.parameters`, tool.name));
    } else if (isSchema(own.parameters) && names(own.parameters).length > 0) {
      problems.push({ path: `responses_create_params.tools.${i}.parameters`, message: `missing: ${tool.name} takes ${names(own.parameters).join(", ")}` });
    }
  });
  return problems;
}
