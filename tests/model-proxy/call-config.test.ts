// A caller's policy model for one call: its URL and name in place of the pool's, never the configured API key, no shared state.
import { describe, expect, it } from "vitest";
import { callConfig } from "../../functions/model-proxy/call-config.js";
import { readConfig } from "../../functions/model-proxy/config.js";
import { callUpstream } from "../../functions/model-proxy/retry.js";
import { poolHealth } from "../../functions/model-proxy/upstream.js";

const vars = { MODEL_BASE_URL: "http://configured:8000/v1", MODEL_NAME: "configured-model", MODEL_API_KEY: "the-operators-key" };
// The callers' hosts these tests name are allowed; the last test shows the default, which allows none.
const base = readConfig({ ...vars, POLICY_URL_ALLOW: "trainer,127.0.0.1:9" });

describe("callConfig", () => {
  it("is the proxy's own config when the caller names nothing", () => {
    expect(callConfig(base, {})).toBe(base);
    expect(callConfig(base)).toBe(base);
  });

  it("puts the caller's servers and model in place of the pool, without the configured key", () => {
    const config = callConfig(base, { policy: { baseUrls: ["http://trainer:9100/v1/", "http://trainer:9101/v1"], model: "Qwen/Qwen3-4B" } });
    expect(config.upstreams).toEqual(["http://trainer:9100/v1", "http://trainer:9101/v1"]);
    expect(config.model).toBe("Qwen/Qwen3-4B");
    expect(config.apiKey).toBeUndefined();
    expect(config.isolated).toBe(true);
    expect(base.apiKey).toBe("the-operators-key");
    expect(base.upstreams).toEqual(["http://configured:8000/v1"]);
  });

  it("a model name alone keeps the configured servers and key (another model on the same server)", () => {
    const config = callConfig(base, { policy: { model: "lora-step-12" } });
    expect(config).toMatchObject({ upstreams: ["http://configured:8000/v1"], model: "lora-step-12", apiKey: "the-operators-key" });
    expect(config.isolated).toBeUndefined();
  });

  it("token ids per call, whatever the proxy's setting", () => {
    expect(callConfig(base, { returnTokenIds: true }).returnTokenIds).toBe(true);
    expect(callConfig({ ...base, returnTokenIds: true }, { returnTokenIds: false }).returnTokenIds).toBe(false);
  });

  it("refuses a URL that is not http(s) and a URL without its model name", () => {
    expect(() => callConfig(base, { policy: { baseUrls: ["file:///etc/passwd"], model: "m" } })).toThrow(/not an http\(s\) URL/);
    expect(() => callConfig(base, { policy: { baseUrls: ["http://trainer:9100/v1"] } })).toThrow(/needs the model name/);
  });

  it("refuses a caller's URL that POLICY_URL_ALLOW does not name (none by default), and a private address it names only by wildcard", () => {
    const strict = readConfig(vars);
    expect(strict.policyAllow).toEqual([]);
    expect(() => callConfig(strict, { policy: { baseUrls: ["http://trainer:9100/v1"], model: "m" } })).toThrow(
      /the host "trainer:9100" is not allowed \(no caller-chosen URL is allowed on this deployment\).*POLICY_URL_ALLOW/,
    );
    const wildcard = readConfig({ ...vars, POLICY_URL_ALLOW: "*" });
    expect(() => callConfig(wildcard, { policy: { baseUrls: ["http://0x7f000001:9100/v1"], model: "m" } })).toThrow(
      /"127\.0\.0\.1:9100" is a loopback address/,
    );
    expect(() => callConfig(base, { policy: { baseUrls: ["http://127.0.0.1:10/v1"], model: "m" } })).toThrow(/"127\.0\.0\.1:10" is not allowed/);
  });

  it("a caller's server that fails leaves nothing in the isolate's pool health", async () => {
    const config = { ...callConfig(base, { policy: { baseUrls: ["http://127.0.0.1:9/v1"], model: "m" } }), maxAttempts: 2, retryBaseMs: 0 };
    await expect(callUpstream(config, { path: "/models", method: "GET", accept: (json) => json })).rejects.toThrow(/failed after 2 attempts/);
    expect(poolHealth(["http://127.0.0.1:9/v1"])).toEqual([{ url: "http://127.0.0.1:9/v1", healthy: true, failures: 0 }]);
  });
});
