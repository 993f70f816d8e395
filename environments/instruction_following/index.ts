// Port of NeMo Gym's instruction_following resources server: IFEval-style verifiable instructions
// (verifiable_instructions' INSTRUCTION_DICT) checked against the final response text.
import { defineEnvironment, z } from "../sdk/index.js";
import { EdgegymError, type Response } from "../../protocol/index.js";
import { followInstructionList } from "./instructions/check.js";

/** Fields older datasets keep at the top level; NeMo Gym copies each into verifier_metadata unless already there. */
const LEGACY_FIELDS = ["instruction_id_list", "prompt", "kwargs", "grading_mode"] as const;
const REQUIRED_FIELDS = ["instruction_id_list", "prompt", "kwargs"] as const;

const present = z.unknown().optional();

/** NeMo Gym reads `content[0].text` of the last output item when it has non-empty content, else "". */
export function finalResponseText(response: Response): string {
  const last = response.output.at(-1) as { content?: unknown } | undefined;
  const content = last?.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content) || content.length === 0) return "";
  const part = content[0] as { type?: unknown; text?: unknown };
  if (typeof part.text !== "string") throw new Error(`'${String(part.type)}' content has no attribute 'text'`);
  return part.text;
}

export default defineEnvironment({
  name: "instruction_following",
  description:
    "IFEval-style verifiable instructions (keywords, lengths, formats, case, punctuation, copying…): reward 1 when every instruction is followed (binary) or the fraction followed.",
  task: z.object({
    id: z.union([
      z.number().int(),
      z
        .string()
        .regex(/^[+-]?\d+$/)
        .transform(Number),
    ]),
    verifier_metadata: z.record(z.string(), z.unknown()).nullish(),
    instruction_id_list: present,
    prompt: present,
    kwargs: present,
    grading_mode: present,
  }),
  tools: {},
  verify: (request) => {
    const metadata: Record<string, unknown> = { ...(request.verifier_metadata ?? {}) };
    for (const field of LEGACY_FIELDS) {
      if (!(field in metadata) && request[field] !== undefined) metadata[field] = request[field];
    }
    const missing = REQUIRED_FIELDS.filter((field) => !(field in metadata));
    if (missing.length > 0) {
      const names = missing.map((field) => `'${field}'`).join(", ");
      throw new EdgegymError(400, "invalid_request", `invalid verify request: verifier_metadata is missing required fields: [${names}]`);
    }

    const followed = followInstructionList(metadata.instruction_id_list, metadata.kwargs, finalResponseText(request.response));
    const gradingMode = "grading_mode" in metadata ? metadata.grading_mode : "binary";
    const all = followed.every(Boolean);
    let reward: number;
    if (gradingMode === "binary") reward = all ? 1 : 0;
    else if (gradingMode === "fraction") reward = followed.length > 0 ? followed.filter(Boolean).length / followed.length : 0;
    else throw new Error(`Invalid grading_mode: ${String(gradingMode)}`);

    return { reward, follow_all_instructions: all, follow_instruction_list: followed, verifier_metadata: metadata };
  },
});
