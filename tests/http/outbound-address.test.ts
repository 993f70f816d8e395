// The address policy (http/outbound/address.ts, allow.ts): every spelling of a loopback, private, link-local or metadata
// address refused, public ones and an exactly named literal let through; names checked without connecting anywhere.
import { describe, expect, it } from "vitest";
import { GatewayVars, ModelProxyVars, parseVars } from "../../contracts/config.js";
import { PolicyUrlAllow } from "../../contracts/outbound.js";
import { formatIp, nonPublic, parseIp, parseIpv4, parseIpv6, reservedName } from "../../http/outbound/address.js";
import { checkPolicyUrl } from "../../http/outbound/allow.js";
import { EdgegymError } from "../../protocol/index.js";

const rules = (text: string) => PolicyUrlAllow.parse(text);

/** The refusal's status, code and message for a URL under these rules, or "ok". */
function verdict(text: string, url: string): string {
  try {
    checkPolicyUrl(rules(text), url);
    return "ok";
  } catch (error) {
    if (error instanceof EdgegymError) return `${error.status} ${error.code}: ${error.message}`;
    throw error;
  }
}

describe("IP literals in every spelling", () => {
  it.each([
    ["127.0.0.1", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["2130706433", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["127.0.0.1.", "127.0.0.1"],
    ["0", "0.0.0.0"],
    ["0xA9.0xFE.0xA9.0xFE", "169.254.169.254"],
    ["0251.0376.0251.0376", "169.254.169.254"],
    ["2852039166", "169.254.169.254"],
  ])("IPv4 %s is %s", (text, canonical) => {
    const value = parseIpv4(text);
    expect(value).toBeDefined();
    expect(formatIp({ family: 4, value: value! })).toBe(canonical);
  });

  it.each(["1.2.3.4.5", "256.0.0.1", "0x1g.0.0.1", "08.0.0.1", "example.com", "4294967296", ""])("%j is no IPv4 address", (text) => {
    expect(parseIpv4(text)).toBeUndefined();
  });

  it.each([
    ["[::1]", "::1"],
    ["::ffff:127.0.0.1", "::ffff:7f00:1"],
    ["[0:0:0:0:0:ffff:7f00:1]", "::ffff:7f00:1"],
    ["64:ff9b::169.254.169.254", "64:ff9b::a9fe:a9fe"],
    ["fe80::1%eth0", "fe80::1"],
    ["2001:DB8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"],
  ])("IPv6 %s is %s", (text, canonical) => {
    const groups = parseIpv6(text);
    expect(groups).toBeDefined();
    expect(formatIp({ family: 6, groups: groups! })).toBe(canonical);
  });

  it.each(["1::2::3", "1:2:3:4:5:6:7:8:9", "::fffff", "::1.2.3", "::256.0.0.1", "g::1", "1:2:3:4:5:6:7"])("%j is no IPv6 address", (text) => {
    expect(parseIpv6(text)).toBeUndefined();
  });
});

describe("addresses that are not public", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["0.0.0.0", "unspecified (this network)"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "shared (CGNAT)"],
    ["100.100.100.200", "shared (CGNAT)"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["168.63.129.16", "cloud metadata"],
    ["192.0.0.170", "IETF protocol assignments"],
    ["192.0.2.1", "documentation"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.9", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "reserved (broadcast)"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::127.0.0.1", "loopback"],
    ["::ffff:0:a00:1", "private"],
    ["64:ff9b::a9fe:a9fe", "link-local (cloud metadata)"],
    ["64:ff9b::10.0.0.1", "private"],
    ["64:ff9b:1::1", "local-use NAT64"],
    ["2002:a9fe:a9fe::", "link-local (cloud metadata)"],
    ["2002:7f00:1::1", "loopback"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo tunnel"],
    ["2001:db8::1", "documentation"],
    ["fe80::1", "link-local"],
    ["febf::1", "link-local"],
    ["fec0::1", "site-local"],
    ["fd00::1", "private (unique local)"],
    ["fc00::1", "private (unique local)"],
    ["fd00:ec2::254", "cloud metadata"],
    ["ff02::1", "multicast"],
    ["100::1", "discard-only"],
    ["::8.8.8.8", "IPv4-compatible"],
  ])("%s is %s", (text, what) => {
    expect(nonPublic(parseIp(text)!)).toBe(what);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.128.0.1",
    "169.253.255.255",
    "192.169.0.1",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
    "2606:4700::1111",
  ])("%s is public", (text) => {
    expect(nonPublic(parseIp(text)!)).toBeUndefined();
  });

  it("names that are never a model server, without resolving them", () => {
    expect(reservedName("metadata.google.internal")).toBe("a cloud metadata");
    expect(reservedName("METADATA.GOOGLE.INTERNAL.")).toBe("a cloud metadata");
    expect(reservedName("x.localhost")).toBe("a local-only");
    expect(reservedName("printer.local")).toBe("a local-only");
    expect(reservedName("vllm.example.com")).toBeUndefined();
    expect(reservedName("localhost")).toBeUndefined(); // resolved like any name (to loopback: refused then)
  });
});

describe("a caller's policy URL", () => {
  const spellings = [
    "http://0x7f000001:8000/v1",
    "http://2130706433:8000/v1",
    "http://0177.0.0.1:8000/v1",
    "http://127.1:8000/v1",
    "http://127.0.0.1.:8000/v1",
    "http://[::1]:8000/v1",
    "http://[::ffff:127.0.0.1]:8000/v1",
    "http://[::ffff:7f00:1]:8000/v1",
    "http://[0:0:0:0:0:ffff:7f00:1]:8000/v1",
    "http://0.0.0.0:8000/v1",
    "http://[64:ff9b::a9fe:a9fe]/v1",
    "http://[2002:a9fe:a9fe::]/v1",
    "http://[fe80::1]/v1",
    "http://[fd00::1]/v1",
    "http://[fd00:ec2::254]/latest/meta-data",
    "http://169.254.169.254/latest/meta-data",
    "http://0xa9fea9fe/latest/meta-data",
    "http://100.64.0.1/v1",
    "http://192.168.0.10/v1",
    "http://172.16.5.4/v1",
    "http://10.0.0.1/v1",
    "http://metadata.google.internal/computeMetadata/v1",
    "http://x.localhost:8000/v1",
    "https://%31%32%37.0.0.1/v1",
  ];

  it.each(spellings)("%s is refused even when every host is allowed (*)", (url) => {
    expect(verdict("*", url)).toMatch(/^403 policy_url_not_allowed: policy_base_url: the host "[^"]+" is (a|an) [^"]+ (address|name)/);
  });

  it.each(spellings)("%s is refused when the allow-list does not name it", (url) => {
    expect(verdict("vllm.example.com", url)).toMatch(/^403 policy_url_not_allowed: .* is not allowed \(it is not in the list\).*POLICY_URL_ALLOW/);
  });

  it("names the canonical host, never the path or query", () => {
    const message = verdict("*", "http://0x7f000001:8000/v1?secret=abc#frag");
    expect(message).toContain('the host "127.0.0.1:8000" is a loopback address');
    expect(message).not.toContain("secret");
    expect(message).not.toContain("/v1");
  });

  it("allows none when unset", () => {
    expect(verdict("", "https://vllm.example.com/v1")).toMatch(/no caller-chosen URL is allowed on this deployment/);
  });

  it("lets public hosts through, and a private literal only when an entry names that exact IP", () => {
    expect(verdict("*", "https://vllm.example.com/v1")).toBe("ok");
    expect(verdict("*", "http://8.8.8.8:8000/v1")).toBe("ok");
    expect(verdict("10.0.0.5:8000", "http://10.0.0.5:8000/v1")).toBe("ok");
    expect(verdict("10.0.0.5", "http://012.0.0.5:9000/v1")).toBe("ok");
    expect(verdict("[::1]", "http://[0:0:0:0:0:0:0:1]:9000/v1")).toBe("ok");
    expect(verdict("10.0.0.5:8000", "http://10.0.0.5:8001/v1")).toMatch(/"10\.0\.0\.5:8001" is not allowed/);
    expect(verdict("10.0.0.5,*", "http://10.0.0.6/v1")).toMatch(/"10\.0\.0\.6" is a private address/);
  });

  it("matches wildcards on whole labels, and ports (the scheme's default when none is written)", () => {
    expect(verdict("*.example.com", "https://a.example.com/v1")).toBe("ok");
    expect(verdict("*.example.com", "https://a.b.example.com/v1")).toBe("ok");
    expect(verdict("*.example.com", "https://example.com/v1")).toMatch(/not allowed/);
    expect(verdict("*.example.com", "https://evilexample.com/v1")).toMatch(/not allowed/);
    expect(verdict("*.example.com", "https://a.example.com.evil.net/v1")).toMatch(/not allowed/);
    expect(verdict("*.example.com:443", "https://a.example.com/v1")).toBe("ok");
    expect(verdict("*.example.com:443", "http://a.example.com/v1")).toMatch(/"a\.example\.com" is not allowed/);
    expect(verdict("vllm.example.com:8000", "http://VLLM.Example.com:8000/v1")).toBe("ok");
    expect(verdict("vllm.example.com:8000", "http://vllm.example.com:8001/v1")).toMatch(/not allowed/);
    expect(verdict("vllm.example.com", "http://user:pw@vllm.example.com/v1")).toBe("ok");
  });

  it("refuses what is not an http(s) URL with 400", () => {
    expect(verdict("*", "file:///etc/passwd")).toMatch(/^400 invalid_request: policy_base_url: must be an http\(s\) URL/);
    expect(verdict("*", "gopher://x/")).toMatch(/^400/);
  });
});

describe("POLICY_URL_ALLOW", () => {
  it("reads hosts, ports, IPv6 literals and wildcards", () => {
    expect(rules(" vllm.example.com:8000 , *.corp.example , [::1]:9000, 10.0.0.5, * ")).toEqual([
      { kind: "exact", host: "vllm.example.com", port: 8000 },
      { kind: "suffix", suffix: ".corp.example" },
      { kind: "exact", host: "[::1]", port: 9000 },
      { kind: "exact", host: "10.0.0.5" },
      { kind: "any" },
    ]);
    expect(rules("")).toEqual([]);
    expect(PolicyUrlAllow.parse(undefined)).toEqual([]);
  });

  it.each([
    ["http://vllm.example.com", /entry 1 \("http:\/\/vllm\.example\.com"\)/],
    ["vllm.example.com/v1", /entry 1 .* must be host\[:port\]/],
    ["ok.example.com,a:99999", /entry 2 \("a:99999"\)/],
    ["*.10.0.0.1", /a wildcard must be \*\.<domain>/],
    ["a*.example.com", /entry 1/],
    ["[::1", /entry 1/],
  ])("refuses %j naming the entry", (text, message) => {
    const parsed = PolicyUrlAllow.safeParse(text);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message).join("; ")).toMatch(message);
  });

  it("a bad entry stops the gateway and the model proxy at start-up, naming the variable and the entry", () => {
    const gateway = { ENVIRONMENTS: "", API_TOKENS: "", POLICY_URL_ALLOW: "vllm.example.com,http://x/v1" };
    expect(() => parseVars(GatewayVars, gateway, "gateway")).toThrow(/^gateway: POLICY_URL_ALLOW entry 2 \("http:\/\/x\/v1"\) must be host\[:port\]/);
    const proxy = { MODEL_BASE_URL: "http://m/v1", MODEL_NAME: "m", POLICY_URL_ALLOW: "*.:1" };
    expect(() => parseVars(ModelProxyVars, proxy, "model proxy")).toThrow(/^model proxy: POLICY_URL_ALLOW entry 1 \("\*\.:1"\)/);
    expect(parseVars(GatewayVars, { ENVIRONMENTS: "", API_TOKENS: "" }, "gateway").POLICY_URL_ALLOW).toEqual([]);
  });
});
