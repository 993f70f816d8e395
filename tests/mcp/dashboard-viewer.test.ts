// The dashboard's rollout viewer shows an MCP call (`mcp__<server>__<tool>`) like any tool call: its name, its arguments
// and its output. The viewer's own code (client/conversation.ts), bundled as the dashboard is, rendered in Chromium.
import path from "node:path";
import { build } from "esbuild";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, chromiumPath } from "../../local/browser.js";
import { PROJECT_ROOT } from "../../local/paths.js";

const CLIENT = path.join(PROJECT_ROOT, "functions", "gateway", "dashboard", "client");
const MCP_NAME = "mcp__example_mcp_weather__get_weather";

/** A rollout whose model called one tool by its MCP name and one plain tool, then answered. */
const record = {
  responses_create_params: { input: [{ role: "user", content: "What is the weather in Paris?" }] },
  response: {
    output: [
      { type: "function_call", name: MCP_NAME, arguments: JSON.stringify({ city: "Paris" }), call_id: "call_mcp" },
      { type: "function_call_output", call_id: "call_mcp", output: JSON.stringify({ city: "Paris", weather_description: "sunny, 21 °C" }) },
      { type: "function_call", name: "lookup_city", arguments: JSON.stringify({ name: "Paris" }), call_id: "call_plain" },
      { type: "function_call_output", call_id: "call_plain", output: "Paris is in France" },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "It is sunny in Paris." }] },
    ],
  },
  reward: 1,
};

type Rendered = { title: string; arguments: string; output: string }[];

let browser: Browser;
let page: Page;

beforeAll(async () => {
  const bundled = await build({
    stdin: { contents: 'import { rolloutView } from "./conversation.ts"; globalThis.rolloutView = rolloutView;', resolveDir: CLIENT, loader: "ts" },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    logLevel: "silent",
  });
  browser = await chromium.launch({ executablePath: await chromiumPath(), args: CHROMIUM_ARGS });
  page = await browser.newPage();
  await page.setContent("<!doctype html><html><body></body></html>");
  await page.addScriptTag({ content: bundled.outputFiles[0]?.text ?? "" });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** The tool-call sections the viewer draws for a record, as a person reads them. Runs in the page, so given as text. */
function renderedToolCalls(rollout: unknown): Promise<Rendered> {
  return page.evaluate<Rendered>(`(() => {
    const view = globalThis.rolloutView(${JSON.stringify(rollout)}, "rollout");
    document.body.replaceChildren(view);
    return [...document.querySelectorAll("section.tool-call")].map((section) => ({
      title: section.querySelector("h4").textContent,
      arguments: section.querySelector("pre.arguments").textContent,
      output: section.querySelector("pre.output")?.textContent ?? section.querySelector("p.muted")?.textContent,
    }));
  })()`);
}

describe("the rollout viewer", () => {
  it("shows an MCP call by its mcp__ name, with its arguments and its output, beside a plain call", async () => {
    expect(await renderedToolCalls(record)).toEqual([
      { title: `Tool call ${MCP_NAME}`, arguments: '{\n  "city": "Paris"\n}', output: '{\n  "city": "Paris",\n  "weather_description": "sunny, 21 °C"\n}' },
      { title: "Tool call lookup_city", arguments: '{\n  "name": "Paris"\n}', output: "Paris is in France" },
    ]);
  });

  it("shows an MCP call whose output was not recorded as such", async () => {
    const unanswered = { ...record, response: { output: [record.response.output[0]] } };
    expect(await renderedToolCalls(unanswered)).toEqual([
      { title: `Tool call ${MCP_NAME}`, arguments: '{\n  "city": "Paris"\n}', output: "(no output recorded)" },
    ]);
  });
});
