// One workplace tool as NeMo Gym declares it: the Python method behind it, its JSON schema, and what it does to the tables.
import type { PyValue } from "./python.js";
import type { Tables } from "./tables.js";

/** The keyword arguments a tool is called with (NeMo Gym's `function(**args)`). */
export type Args = Readonly<Record<string, PyValue>>;

export interface ToolSpec {
  /** The Python method, as a TypeError about its arguments names it (`EmailTool.send_email`). */
  method: string;
  description: string;
  /** Its parameters in signature order, each with the type and description NeMo Gym's schema gives the model. */
  parameters: Readonly<Record<string, { type: "string" | "integer"; description: string }>>;
  required: readonly string[];
  /** The method's body: returns what NeMo Gym puts under `output`, throws PyError where Python raises. */
  run(db: Tables, args: Args): unknown;
}

/** args.get(name, default): a parameter the call left out takes the method's default (None unless given). */
export const arg = (args: Args, name: string, fallback: PyValue = null): PyValue => (Object.hasOwn(args, name) ? args[name]! : fallback);
