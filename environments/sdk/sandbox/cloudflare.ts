// The Cloudflare provider's Worker side: getSandbox over the SANDBOX binding. Imported only by the entries of environment
// Workers deployed with EDGEGYM_SANDBOX_PROVIDER=cloudflare (infra/environments.ts), never by the local bundles.
import { getSandbox, type Sandbox } from "@cloudflare/sandbox";
import type { SandboxProvider } from "../../../contracts/sandbox.js";
import { CloudflareSandboxProvider, type SandboxStub } from "./cloudflare-provider.js";
import { SandboxConfigError } from "./provider-config.js";

/** The provider over the Durable Object namespace bound as `binding` (the sandbox Worker's `Sandbox` class). */
export function cloudflareSandboxProvider(env: object, binding: string): SandboxProvider {
  const namespace = Reflect.get(env, binding) as DurableObjectNamespace<Sandbox> | undefined;
  if (!namespace || typeof namespace.idFromName !== "function") {
    throw new SandboxConfigError(`${binding}: no Durable Object namespace bound (SANDBOX_PROVIDER=cloudflare needs the sandbox Worker's Sandbox class)`);
  }
  return new CloudflareSandboxProvider((id, options): SandboxStub => getSandbox(namespace, id, { sleepAfter: options.sleepAfter, normalizeId: true }));
}
