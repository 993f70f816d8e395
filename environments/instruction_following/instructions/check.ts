// NeMo Gym's verify loop over (instruction id, kwargs) pairs: build each instruction from its kwargs with the
// nulls dropped, check the response, and count any exception as "not followed".
import { INSTRUCTIONS } from "./registry.js";
import { PyError, iterate } from "./util/python.js";

function followsOne(id: unknown, kwargs: unknown, response: string): boolean {
  try {
    const spec = typeof id === "string" ? INSTRUCTIONS.get(id) : undefined;
    if (!spec) throw new PyError("KeyError", String(id));
    const given = kwargs ?? {};
    if (typeof given !== "object" || Array.isArray(given)) throw new PyError("AttributeError", "object has no attribute 'items'");
    const filtered = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== null && value !== undefined));
    const unexpected = Object.keys(filtered).find((key) => !spec.params.includes(key));
    if (unexpected !== undefined) throw new PyError("TypeError", `build_description() got an unexpected keyword argument '${unexpected}'`);
    return Boolean(spec.build(filtered)(response));
  } catch {
    // As NeMo Gym: an instruction that raises counts as not followed (see above).
    return false;
  }
}

/**
 * One boolean per zip(instruction_id_list, kwargs) pair (the shorter list decides how many). A value that is
 * not iterable raises a TypeError outside NeMo Gym's try, so it fails the request.
 */
export function followInstructionList(ids: unknown, kwargs: unknown, response: string): boolean[] {
  const idList = iterate(ids);
  const kwargsList = iterate(kwargs);
  const n = Math.min(idList.length, kwargsList.length);
  return Array.from({ length: n }, (_, i) => followsOne(idList[i], kwargsList[i], response));
}
