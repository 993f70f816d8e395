// NeMo Gym's _wrap_verify: the verifier sees a verify request's function calls under their bare names
// (`mcp__<environment>__<tool>` → `<tool>`), so MCP and plain rollouts score alike; the record keeps what was emitted.
import { normalizeToolName } from "../../../protocol/mcp-names.js";
import type { VerifyRequest } from "../../../protocol/index.js";

/** The request as the verifier should see it: the same object when no name changes, else a copy with bare names. */
export function normalizedForVerify<R extends VerifyRequest>(request: R, environmentName: string): R {
  const output = request.response.output;
  const renamed = (item: (typeof output)[number]) => item.type === "function_call" && normalizeToolName(item.name, environmentName) !== item.name;
  if (!output.some(renamed)) return request;
  const normalized = output.map((item) => (item.type === "function_call" ? { ...item, name: normalizeToolName(item.name, environmentName) } : item));
  return { ...request, response: { ...request.response, output: normalized } };
}
