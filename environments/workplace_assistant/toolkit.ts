// The 27 workplace tools in NeMo Gym's order, and one call as NeMo Gym's route makes it: `function(**args)`, errors as text.
import { PyError, type PyValue, typeName } from "./python.js";
import type { Tables } from "./tables.js";
import type { ToolSpec } from "./tool.js";
import { ANALYTICS_TOOLS } from "./tools/analytics.js";
import { CALENDAR_TOOLS } from "./tools/calendar.js";
import { CRM_TOOLS } from "./tools/crm.js";
import { DIRECTORY_TOOLS } from "./tools/directory.js";
import { EMAIL_TOOLS } from "./tools/email.js";
import { PROJECT_MANAGEMENT_TOOLS } from "./tools/project_management.js";

/** get_tools(): the company directory, then email, calendar, analytics, project management and CRM. */
export const TOOLS: Readonly<Record<string, ToolSpec>> = {
  ...DIRECTORY_TOOLS,
  ...EMAIL_TOOLS,
  ...CALENDAR_TOOLS,
  ...ANALYTICS_TOOLS,
  ...PROJECT_MANAGEMENT_TOOLS,
  ...CRM_TOOLS,
};

const isScalar = (value: unknown): value is PyValue => value === null || ["string", "number", "boolean"].includes(typeof value);

/**
 * `tool_env["functions"][name](**args)`: KeyError for an unknown tool, TypeError for a keyword the method does not take
 * or arguments that are not a JSON object, then the method itself. Returns the method's result or throws PyError.
 */
export function invoke(db: Tables, name: string, args: unknown): unknown {
  const tool = Object.hasOwn(TOOLS, name) ? TOOLS[name]! : undefined;
  if (!tool) throw new PyError("KeyError", `'${name}'`);
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    const type = Array.isArray(args) ? "list" : typeName(args as PyValue);
    throw new PyError("TypeError", `${tool.method}() argument after ** must be a mapping, not ${type}`);
  }
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(tool.parameters, key)) throw new PyError("TypeError", `${tool.method}() got an unexpected keyword argument '${key}'`);
    // Lists and objects are not followed through pandas here: refused before the method runs (see the README).
    if (!isScalar(value)) throw new PyError("TypeError", `${tool.method}() argument '${key}' must be a string, a number, a boolean or null here`);
  }
  return tool.run(db, args as Record<string, PyValue>);
}

/**
 * A tool call from the model, as NeMo Gym's route answers it: arguments that are None are dropped first, and the
 * result, or `Error executing tool '<name>': <error>`, is the `output` the model sees.
 */
export function callTool(db: Tables, name: string, body: Record<string, unknown>): { output: unknown } {
  const args = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null && value !== undefined));
  try {
    return { output: invoke(db, name, args) };
  } catch (error) {
    if (error instanceof PyError) return { output: `Error executing tool '${name}': ${error.message}` };
    throw error;
  }
}
