// Name resolution as a port: DNS over HTTPS on Cloudflare, a service binding served by Node locally, Node's dns on AWS.

/** A host name's addresses (IPv4 and IPv6 text); an empty list when the name does not exist. Throws when it cannot tell. */
export type Resolver = (name: string) => Promise<string[]>;

/** What the local resolver binding answers (local/resolver.ts serves it). */
export interface ResolverAnswer {
  addresses: string[];
}

/** A binding that answers `GET /?name=<host>` with a ResolverAnswer: the local emulation's, backed by the OS. */
export function bindingResolver(binding: { fetch(input: string): Promise<Response> }): Resolver {
  return async (name) => {
    const response = await binding.fetch(`http://resolver/?name=${encodeURIComponent(name)}`);
    if (!response.ok) throw new Error(`the resolver answered HTTP ${response.status}`);
    const answer = (await response.json()) as Partial<ResolverAnswer>;
    if (!Array.isArray(answer.addresses)) throw new Error("the resolver's answer has no addresses");
    return answer.addresses.filter((a): a is string => typeof a === "string");
  };
}

export const DOH_URL = "https://cloudflare-dns.com/dns-query";
const DOH_TYPES = { A: 1, AAAA: 28 } as const;

interface DohAnswer {
  Status?: number;
  Answer?: { type?: number; data?: string }[];
}

/**
 * Cloudflare's DNS-over-HTTPS JSON API (A and AAAA at once), each query bounded by `timeoutMs`. NXDOMAIN is no address;
 * any other failure throws, so a name that cannot be checked is never connected to.
 */
export function dohResolver(fetcher: typeof fetch = fetch, timeoutMs = 3_000): Resolver {
  const query = async (name: string, type: keyof typeof DOH_TYPES): Promise<string[]> => {
    const url = `${DOH_URL}?name=${encodeURIComponent(name)}&type=${type}`;
    const response = await fetcher(url, { headers: { accept: "application/dns-json" }, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`DNS over HTTPS answered HTTP ${response.status}`);
    const answer = (await response.json()) as DohAnswer;
    if (answer.Status === 3) return [];
    if (answer.Status !== 0) throw new Error(`DNS over HTTPS answered status ${String(answer.Status)}`);
    return (answer.Answer ?? []).filter((record) => record.type === DOH_TYPES[type] && typeof record.data === "string").map((record) => record.data!);
  };
  return async (name) => (await Promise.all([query(name, "A"), query(name, "AAAA")])).flat();
}
