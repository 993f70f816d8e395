// The sandbox's one error class: a SandboxErrorCode (contracts/sandbox.ts) and what the provider said.
import type { SandboxErrorCode } from "../../../contracts/sandbox.js";

/** A provider failure (infrastructure: the tool's 500, the verifier's verify_error) or a refusal the model sees. */
export class SandboxError extends Error {
  override name = "SandboxError";
  constructor(
    readonly code: SandboxErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
