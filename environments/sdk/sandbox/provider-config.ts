// Picks the deployment's sandbox provider from the environment Worker's variables (per deployment, never per environment).
import { z } from "zod";
import type { SandboxProvider } from "../../../contracts/sandbox.js";
import { HttpSandboxProvider } from "./http-provider.js";

/**
 * SANDBOX_PROVIDER: `local` (the default: the local service at SANDBOX_URL, which the emulation starts), `remote` (any
 * service speaking wire.ts at SANDBOX_URL, SANDBOX_TOKEN a secret) or `cloudflare` (the Sandbox Durable Object namespace
 * bound as SANDBOX_BINDING, default SANDBOX).
 */
export const SandboxVars = z.object({
  SANDBOX_PROVIDER: z.enum(["local", "remote", "cloudflare"]).default("local"),
  SANDBOX_URL: z.url().optional(),
  SANDBOX_TOKEN: z.string().min(1).optional(),
  SANDBOX_BINDING: z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]*$/)
    .default("SANDBOX"),
});

/** Raised when an environment declares a sandbox and the deployment configured none it can reach. */
export class SandboxConfigError extends Error {
  override name = "SandboxConfigError";
}

/** Makes the cloudflare provider; only a Worker built with it (cloudflare.ts) registers one, so local bundles never hold the SDK. */
export type CloudflareProviderFactory = (env: object, binding: string) => SandboxProvider;
let cloudflareFactory: CloudflareProviderFactory | undefined;

/** Called by the generated entry of an environment Worker deployed with the Cloudflare provider (infra/environments.ts). */
export function useCloudflareSandboxes(factory: CloudflareProviderFactory): void {
  cloudflareFactory = factory;
}

/** The provider these variables name, or a SandboxConfigError saying which variable is missing or wrong. */
export function sandboxProvider(env: object): SandboxProvider {
  const vars = SandboxVars.safeParse({
    SANDBOX_PROVIDER: Reflect.get(env, "SANDBOX_PROVIDER") || undefined,
    SANDBOX_URL: Reflect.get(env, "SANDBOX_URL") || undefined,
    SANDBOX_TOKEN: Reflect.get(env, "SANDBOX_TOKEN") || undefined,
    SANDBOX_BINDING: Reflect.get(env, "SANDBOX_BINDING") || undefined,
  });
  if (!vars.success) {
    const issue = vars.error.issues[0];
    throw new SandboxConfigError(`${issue?.path.join(".")}: ${issue?.message}`);
  }
  const { SANDBOX_PROVIDER: kind, SANDBOX_URL: url, SANDBOX_TOKEN: token, SANDBOX_BINDING: binding } = vars.data;
  if (kind === "cloudflare") {
    if (!cloudflareFactory) {
      throw new SandboxConfigError(
        "SANDBOX_PROVIDER: cloudflare, but this Worker was built without the Cloudflare provider (deploy with EDGEGYM_SANDBOX_PROVIDER=cloudflare; see README: Sandboxes)",
      );
    }
    return cloudflareFactory(env, binding);
  }
  if (!url) throw new SandboxConfigError(`SANDBOX_URL: is not set (the ${kind} sandbox service's base URL)`);
  return new HttpSandboxProvider({ kind, url, token });
}
