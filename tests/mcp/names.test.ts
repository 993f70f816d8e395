// protocol/mcp-names.ts against NeMo Gym's normalize_tool_name (nemo_gym/base_resources_server.py), case by case.
import { describe, expect, it } from "vitest";
import { mcpToolName, normalizeToolName } from "../../protocol/mcp-names.js";

describe("normalizeToolName", () => {
  it("strips only the named server's prefix, keeping tool names that hold __", () => {
    expect(normalizeToolName("mcp__weather__get_weather", "weather")).toBe("get_weather");
    expect(normalizeToolName("mcp__weather__a__b", "weather")).toBe("a__b");
    expect(normalizeToolName("mcp__other__get_weather", "weather")).toBe("mcp__other__get_weather");
    expect(normalizeToolName("get_weather", "weather")).toBe("get_weather");
  });

  it("without a server, splits at the first __ after the server's name; a name without one passes", () => {
    expect(normalizeToolName("mcp__workplace_assistant__email_reply_email")).toBe("email_reply_email");
    expect(normalizeToolName("mcp__server_only")).toBe("mcp__server_only");
    expect(normalizeToolName("plain")).toBe("plain");
  });

  it("inverts mcpToolName", () => {
    expect(normalizeToolName(mcpToolName("example_mcp_weather", "get_weather"), "example_mcp_weather")).toBe("get_weather");
  });
});
