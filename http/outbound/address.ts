// IP addresses as WHATWG URL and the OS read them (IPv4 in every numeric spelling, IPv6 with embedded IPv4), and which are not public.

export type IpAddress = { family: 4; value: number } | { family: 6; groups: number[] };

/** One IPv4 part as inet_aton and WHATWG URL read it: 0x… hex, 0… octal, else decimal. */
function ipv4Part(part: string): number | undefined {
  if (part === "") return undefined;
  let digits = part;
  let radix = 10;
  if (/^0x/i.test(part)) {
    digits = part.slice(2);
    radix = 16;
    if (digits === "") return 0;
  } else if (part.length > 1 && part.startsWith("0")) {
    digits = part.slice(1);
    radix = 8;
  }
  const valid = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!valid.test(digits)) return undefined;
  const value = Number.parseInt(digits, radix);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** `127.0.0.1`, `127.1`, `0x7f000001`, `2130706433`, `0177.0.0.1`, a trailing dot: the 32-bit address, or undefined. */
export function parseIpv4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length > 1 && parts.at(-1) === "") parts.pop();
  if (parts.length === 0 || parts.length > 4) return undefined;
  const numbers = parts.map(ipv4Part);
  if (numbers.some((n) => n === undefined)) return undefined;
  const values = numbers as number[];
  const last = values.pop()!;
  if (values.some((n) => n > 255) || last >= 256 ** (4 - values.length)) return undefined;
  return values.reduce((sum, n, i) => sum + n * 256 ** (3 - i), 0) + last;
}

/** An IPv6 address (brackets and a `%zone` allowed), as eight 16-bit groups, or undefined. */
export function parseIpv6(text: string): number[] | undefined {
  let body = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  body = body.replace(/%.*$/, "");
  if (!/^[0-9a-f:.]+$/i.test(body)) return undefined;
  const lastColon = body.lastIndexOf(":");
  const dotted = body.slice(lastColon + 1);
  if (dotted.includes(".")) {
    // An embedded dotted quad (::ffff:127.0.0.1), strict decimal as IPv6 text allows: rewritten as its two groups.
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(dotted)) return undefined;
    const [a, b, c, d] = dotted.split(".").map(Number) as [number, number, number, number];
    if ([a, b, c, d].some((n) => n > 255)) return undefined;
    body = `${body.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = body.split("::");
  if (halves.length > 2) return undefined;
  const groupsOf = (side: string): number[] | undefined => {
    if (side === "") return [];
    const groups = side.split(":").map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? Number.parseInt(g, 16) : Number.NaN));
    return groups.some(Number.isNaN) ? undefined : groups;
  };
  const left = groupsOf(halves[0]!);
  if (!left) return undefined;
  if (halves.length === 1) return left.length === 8 ? left : undefined;
  const right = groupsOf(halves[1]!);
  if (!right || left.length + right.length > 7) return undefined;
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** An IP literal in any spelling a URL host or a resolver may give, or undefined for a name. */
export function parseIp(host: string): IpAddress | undefined {
  if (host.includes(":") || host.startsWith("[")) {
    const groups = parseIpv6(host);
    return groups ? { family: 6, groups } : undefined;
  }
  const value = parseIpv4(host);
  return value === undefined ? undefined : { family: 4, value };
}

/** The canonical text of an address (dotted quad; IPv6 lower-case, longest zero run as `::`, without brackets). */
export function formatIp(ip: IpAddress): string {
  if (ip.family === 4) return [24, 16, 8, 0].map((shift) => (ip.value >>> shift) & 255).join(".");
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8; ) {
    if (ip.groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && ip.groups[j] === 0) j++;
    if (j - i > best.length && j - i > 1) best = { start: i, length: j - i };
    i = j;
  }
  const hex = ip.groups.map((g) => g.toString(16));
  if (best.start < 0) return hex.join(":");
  return `${hex.slice(0, best.start).join(":")}::${hex.slice(best.start + best.length).join(":")}`;
}

const v4 = (a: number, b: number, c: number, d: number) => ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;

/** IPv4 blocks that are not the public internet (IANA's special-purpose registry), with what they are. */
const IPV4_BLOCKS: [number, number, string][] = [
  [v4(0, 0, 0, 0), 8, "unspecified (this network)"],
  [v4(10, 0, 0, 0), 8, "private"],
  [v4(100, 64, 0, 0), 10, "shared (CGNAT)"],
  [v4(127, 0, 0, 0), 8, "loopback"],
  [v4(169, 254, 0, 0), 16, "link-local (cloud metadata)"],
  [v4(172, 16, 0, 0), 12, "private"],
  [v4(192, 0, 0, 0), 24, "IETF protocol assignments"],
  [v4(192, 0, 2, 0), 24, "documentation"],
  [v4(192, 88, 99, 0), 24, "6to4 relay"],
  [v4(192, 168, 0, 0), 16, "private"],
  [v4(198, 18, 0, 0), 15, "benchmarking"],
  [v4(198, 51, 100, 0), 24, "documentation"],
  [v4(203, 0, 113, 0), 24, "documentation"],
  [v4(224, 0, 0, 0), 4, "multicast"],
  [v4(240, 0, 0, 0), 4, "reserved (broadcast)"],
  // Azure's wire server and metadata endpoint sits on a public address.
  [v4(168, 63, 129, 16), 32, "cloud metadata"],
];

function ipv4Class(value: number): string | undefined {
  for (const [base, bits, what] of IPV4_BLOCKS) {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    if ((value & mask) >>> 0 === base) return what;
  }
  return undefined;
}

const embedded = (high: number, low: number) => ((high << 16) >>> 0) + low;

/** IPv6: the IPv4 inside (mapped, compatible, translated, NAT64, 6to4, Teredo) is judged as IPv4; then the v6 blocks. */
function ipv6Class(g: number[]): string | undefined {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 8)) return "unspecified";
  if (zeros(0, 7) && g[7] === 1) return "loopback";
  // ::ffff:a.b.c.d (mapped) and 64:ff9b::a.b.c.d (NAT64) reach that IPv4 address; judged as it is.
  if ((zeros(0, 5) && g[5] === 0xffff) || (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6))) return ipv4Class(embedded(g[6]!, g[7]!));
  // ::a.b.c.d (compatible, deprecated) and ::ffff:0:a.b.c.d (translated): no public server is reached this way.
  if (zeros(0, 6) || (zeros(0, 4) && g[4] === 0xffff && g[5] === 0)) return ipv4Class(embedded(g[6]!, g[7]!)) ?? "IPv4-compatible";
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return "local-use NAT64";
  if (g[0] === 0x2002) return ipv4Class(embedded(g[1]!, g[2]!));
  // Teredo carries a server's and a client's IPv4 (inverted): a tunnel that may land anywhere, refused whole.
  if (g[0] === 0x2001 && g[1] === 0) return "Teredo tunnel";
  if (g[0] === 0x2001 && g[1]! < 0x200) return "IETF protocol assignments";
  if (g[0] === 0x2001 && g[1] === 0xdb8) return "documentation";
  if (g[0] === 0x3fff && g[1]! < 0x1000) return "documentation";
  if (g[0] === 0x100 && zeros(1, 4)) return "discard-only";
  if ((g[0]! & 0xfe00) === 0xfc00) return g[0] === 0xfd00 && g[1] === 0xec2 ? "cloud metadata" : "private (unique local)";
  if ((g[0]! & 0xffc0) === 0xfe80) return "link-local";
  if ((g[0]! & 0xffc0) === 0xfec0) return "site-local";
  if ((g[0]! & 0xff00) === 0xff00) return "multicast";
  return undefined;
}

/** What an address is when it is not public (`"loopback"`, `"private"`, `"link-local (cloud metadata)"`…), else undefined. */
export function nonPublic(ip: IpAddress): string | undefined {
  return ip.family === 4 ? ipv4Class(ip.value) : ipv6Class(ip.groups);
}

/** Names that are never a public model server: cloud metadata names and reserved local suffixes (RFC 6761, 6762, 8375). */
const METADATA_NAMES = new Set(["metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal"]);
const LOCAL_SUFFIXES = [".localhost", ".local", ".internal", ".localdomain", ".home.arpa", ".intranet", ".lan"];

/** Why a host name (not a literal) is refused without resolving it ("a cloud metadata", "a local-only"), or undefined. */
export function reservedName(name: string): string | undefined {
  const host = name.toLowerCase().replace(/\.$/, "");
  if (METADATA_NAMES.has(host)) return "a cloud metadata";
  if (LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return "a local-only";
  return undefined;
}
