// Environments: each registered one with its tools (name, description, parameters), whether it keeps state,
// and its example row, which one button runs through /run and shows as a rollout.
import type { FunctionTool } from "../../../../../protocol/index.js";
import { request } from "../api.js";
import { h, prettyJson, replace, status } from "../dom.js";
import { rolloutView } from "../conversation.js";
import type { View } from "./context.js";
import { type DescribedEnvironment, listEnvironments } from "./new-job.js";

type Schema = { type?: unknown; description?: unknown; properties?: Record<string, Schema>; required?: unknown; items?: Schema; enum?: unknown[] };

function typeOf(schema: Schema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.type === "array" && schema.items) return `${typeOf(schema.items)}[]`;
  return Array.isArray(schema.type) ? schema.type.join(" | ") : String(schema.type ?? "any");
}

function parameters(tool: FunctionTool): HTMLElement {
  const schema = (tool.parameters ?? {}) as Schema;
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) return h("p", { class: "muted" }, "No parameters.");
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return h(
    "table",
    { class: "parameters" },
    h("caption", { class: "visually-hidden" }, `Parameters of ${tool.name}`),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["Parameter", "Type", "Description"].map((t) => h("th", { scope: "col" }, t)),
      ),
    ),
    h(
      "tbody",
      {},
      properties.map(([name, property]) =>
        h(
          "tr",
          {},
          h("td", {}, h("code", {}, name), required.has(name) ? h("span", { class: "required", title: "required" }, " *") : null),
          h("td", {}, h("code", {}, typeOf(property))),
          h("td", {}, typeof property.description === "string" ? property.description : ""),
        ),
      ),
    ),
  );
}

function toolList(environment: DescribedEnvironment): HTMLElement {
  if (environment.tools.length === 0) return h("p", { class: "muted" }, "No tools: the model answers directly.");
  return h(
    "ul",
    { class: "tools" },
    environment.tools.map((tool) =>
      h("li", {}, h("h4", {}, h("code", {}, tool.name)), tool.description ? h("p", { class: "description" }, tool.description) : null, parameters(tool)),
    ),
  );
}

/** The example row, editable, and the button that runs it once through the agent. */
function tryIt(environment: DescribedEnvironment): HTMLElement {
  const example = environment.examples?.[0];
  const id = `example-${environment.name}`;
  const rows = Math.min(14, Math.max(4, prettyJson(example ?? {}).split("\n").length));
  const text = h("textarea", { id, rows, spellcheck: "false" }, example ? prettyJson(example) : "");
  const out = h("div", { class: "run-output", "aria-live": "polite" });
  const button = h("button", { type: "button" }, "Run example");
  button.addEventListener("click", async () => {
    let row: unknown;
    try {
      row = JSON.parse(text.value);
    } catch (error) {
      replace(out, status(`The row is not JSON: ${error instanceof Error ? error.message : String(error)}`, "error"));
      return;
    }
    button.disabled = true;
    replace(out, status(`Running one rollout of ${environment.name}…`));
    try {
      const response = await request(`/run?environment=${encodeURIComponent(environment.name)}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(row),
      });
      replace(out, h("h4", {}, "Result"), rolloutView((await response.json()) as Record<string, unknown>, "rollout"));
    } catch (error) {
      replace(out, status(`The rollout failed: ${error instanceof Error ? error.message : String(error)}`, "error"));
    } finally {
      button.disabled = false;
    }
  });
  return h(
    "details",
    { class: "try" },
    h("summary", {}, "Try it: run one row"),
    h("label", { for: id }, example ? "Example row (from its data/example.jsonl; edit it if you like)" : "A row (NeMo Gym JSON)"),
    text,
    h("div", { class: "actions" }, button),
    out,
  );
}

function card(environment: DescribedEnvironment): HTMLElement {
  return h(
    "section",
    { class: "card environment", id: `env-${environment.name}`, "aria-labelledby": `env-title-${environment.name}` },
    h(
      "h2",
      { id: `env-title-${environment.name}` },
      h("code", {}, environment.name),
      " ",
      h("span", { class: `badge ${environment.stateful ? "stateful" : "stateless"}` }, environment.stateful ? "stateful" : "stateless"),
      environment.kind === "gymnasium" ? h("span", { class: "badge gymnasium" }, "gymnasium") : null,
    ),
    environment.description ? h("p", {}, environment.description) : null,
    environment.max_steps ? h("p", { class: "muted" }, `At most ${environment.max_steps} model turns.`) : null,
    // Closed: the page lists every environment in a screen or two; a card's tools open on a click (or from the index).
    h("details", { class: "tools" }, h("summary", {}, `${environment.tools.length} tool${environment.tools.length === 1 ? "" : "s"}`), toolList(environment)),
    tryIt(environment),
  );
}

export function environmentsView(view: View): void {
  replace(view.root, h("h1", {}, "Environments"), status("Loading…"));
  listEnvironments().then(
    (list) => {
      if (view.signal.aborted) return;
      const index = h(
        "nav",
        { class: "env-index", "aria-label": "Environments" },
        h(
          "ul",
          {},
          list.map((env) => h("li", {}, h("a", { href: `#env-${env.name}`, "data-anchor": "true" }, env.name))),
        ),
      );
      // In-page links, not routes: the hash holds the route, so these scroll and move focus instead.
      index.addEventListener("click", (event) => {
        const link = (event.target as HTMLElement).closest<HTMLAnchorElement>("a[data-anchor]");
        const target = link && document.getElementById(link.getAttribute("href")!.slice(1));
        if (!target) return;
        event.preventDefault();
        target.querySelector<HTMLDetailsElement>("details.tools")?.setAttribute("open", "");
        target.setAttribute("tabindex", "-1");
        target.scrollIntoView({ block: "start" });
        target.focus({ preventScroll: true });
      });
      replace(view.root, h("h1", {}, "Environments"), h("p", { class: "muted" }, `${list.length} registered with this gateway.`), index, list.map(card));
    },
    (error: unknown) =>
      replace(
        view.root,
        h("h1", {}, "Environments"),
        status(`Could not list the environments: ${error instanceof Error ? error.message : String(error)}`, "error"),
      ),
  );
}
