// Picks the deployment's sandbox provider from the environment Worker's variables (per deployment, never per environment).
import { z } from "zod";
import type { SandboxProvider } from "../../../contracts/sandbox.js";
import { HttpSandboxProvider } from "./http-provider.js";

/**
 * SANDBOX_PROVIDER: `local` (the default: the local service at SANDBOX_URL, which the emulation starts), `remote` (any
 * service speaking wire.ts at SANDBOX_URL, SANDBOX_TOKEN a secret) or `cloudflare` (the SANDBOX Durable Object binding).
 */
export const SandboxVars = z.object({
  SANDBOX_PROVIDER: z.enum(["local", "remote", "cloudflare"]).default("local"),
  SANDBOX_URL: z.url().optional(),
  SANDBOX_TOKEN: z.string().min(1).optional(),
});

/** Raised when an environment declares a sandbox and the deployment configured none it can reach. */
export class SandboxConfigError extends Error {
  override name = "SandboxConfigError";
}

/** The provider these variables name, or a SandboxConfigError saying which variable is missing or wrong. */
export function sandboxProvider(env: object): SandboxProvider {
  const vars = SandboxVars.safeParse({
    SANDBOX_PROVIDER: Reflect.get(env, "SANDBOX_PROVIDER") || undefined,
    SANDBOX_URL: Reflect.get(env, "SANDBOX_URL") || undefined,
    SANDBOX_TOKEN: Reflect.get(env, "SANDBOX_TOKEN") || undefined,
  });
  if (!vars.success) {
    const issue = vars.error.issues[0];
    throw new SandboxConfigError(`${issue?.path.join(".")}: ${issue?.message}`);
  }
  const { SANDBOX_PROVIDER: kind, SANDBOX_URL: url, SANDBOX_TOKEN: token } = vars.data;
  if (kind === "cloudflare") throw new SandboxConfigError("SANDBOX_PROVIDER: cloudflare is not wired in this build (see README: Sandboxes)");
  if (!url) throw new SandboxConfigError(`SANDBOX_URL: is not set (the ${kind} sandbox service's base URL)`);
  return new HttpSandboxProvider({ kind, url, token });
}
