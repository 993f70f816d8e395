// Name resolution through the OS (Node's dns.lookup, as a connection would resolve): the local emulation's resolver binding and the AWS path's resolver.
import { promises as dns } from "node:dns";
import type { Resolver, ResolverAnswer } from "../http/outbound/resolve.js";

/** Every address the OS gives for a name; none when it does not exist. */
export const osResolver: Resolver = async (name) => {
  try {
    return (await dns.lookup(name, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTFOUND" || code === "ENODATA") return [];
    throw error;
  }
};

/** The model proxy's DNS_RESOLVER binding in Miniflare: `GET /?name=<host>` answered with the OS's addresses (status and JSON body). */
export async function resolveRequest(url: string): Promise<{ status: number; body: ResolverAnswer | { error: string } }> {
  const name = new URL(url).searchParams.get("name");
  if (!name) return { status: 400, body: { error: "name is required" } };
  try {
    return { status: 200, body: { addresses: await osResolver(name) } };
  } catch (error) {
    return { status: 502, body: { error: error instanceof Error ? error.message : String(error) } };
  }
}
