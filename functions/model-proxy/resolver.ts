// How the model proxy resolves a caller's host names: the local emulation's resolver binding, else DNS over HTTPS.
import type { ModelProxyEnv } from "../../contracts/env.generated.js";
import { bindingResolver, dohResolver, type Resolver } from "../../http/outbound/resolve.js";

/**
 * The binding the local emulation adds (local/resolver.ts, the OS's resolver through Node): it is no part of the deployed
 * topology, so it is not in the generated ModelProxyEnv.
 */
interface LocalResolverBinding {
  DNS_RESOLVER?: { fetch(input: string): Promise<Response> };
}

export const DNS_RESOLVER_BINDING = "DNS_RESOLVER";

const doh = dohResolver();

export function resolverFor(env: ModelProxyEnv): Resolver {
  const local = (env as ModelProxyEnv & LocalResolverBinding).DNS_RESOLVER;
  return local ? bindingResolver(local) : doh;
}
