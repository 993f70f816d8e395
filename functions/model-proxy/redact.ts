// The model's upstream URLs stay inside the proxy: callers see an upstream's index in the pool, never its address.
import type { ProxyConfig } from "./config.js";

/** The index of `url` in the pool (as configured), for headers and messages. */
export function upstreamIndex(config: Pick<ProxyConfig, "upstreams">, url: string): number {
  return config.upstreams.indexOf(url);
}

/** "upstream #1": how messages name an upstream. */
export function upstreamName(config: Pick<ProxyConfig, "upstreams">, url: string): string {
  return `upstream #${upstreamIndex(config, url)}`;
}

/** The forms an address may take in a message: the base URL, its origin, its host. */
function forms(url: string): string[] {
  try {
    const parsed = new URL(url);
    return [url, parsed.origin, parsed.host];
  } catch {
    return [url];
  }
}

/** Text from elsewhere (a fetch error, an upstream's own message) with any upstream address replaced by its name. */
export function redact(config: Pick<ProxyConfig, "upstreams">, text: string): string {
  let out = text;
  config.upstreams.forEach((url, i) => {
    for (const address of forms(url)) out = out.split(address).join(`upstream #${i}`);
  });
  return out;
}
