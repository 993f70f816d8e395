// One rollout record as a person reads it: the prompt, each model turn (reasoning folded), tool calls with their outputs,
// the final answer, then the reward, the verifier's fields and the token counts.
import { formatNumber, h, prettyJson } from "./dom.js";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** The text of a message's content or a tool's output: a string, or a list of parts with `text`. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((part) => (isObject(part) && typeof part.text === "string" ? part.text : isObject(part) ? `[${String(part.type)}]` : "")).join("");
  return content === undefined || content === null ? "" : prettyJson(content);
}

function block(kind: string, title: string | Node, ...body: (Node | string)[]): HTMLElement {
  return h("section", { class: `item ${kind}` }, h("h4", {}, title), ...body);
}

function message(item: Json, final: boolean): HTMLElement {
  const role = String(item.role ?? "assistant");
  const title = final ? "Final answer" : role === "assistant" ? "Assistant" : role[0]!.toUpperCase() + role.slice(1);
  return block(final ? "message final" : `message ${role}`, title, h("div", { class: "text" }, textOf(item.content)));
}

function reasoning(item: Json): HTMLElement {
  const parts = [...(Array.isArray(item.summary) ? item.summary : []), ...(Array.isArray(item.content) ? item.content : [])];
  const text = parts.map((part) => (isObject(part) && typeof part.text === "string" ? part.text : "")).join("\n");
  return h(
    "details",
    { class: "item reasoning" },
    h("summary", {}, `Reasoning (${text.length.toLocaleString("en-US")} characters)`),
    h("div", { class: "text" }, text || (item.encrypted_content ? "(encrypted)" : "(empty)")),
  );
}

function toolCall(item: Json, output: Json | undefined): HTMLElement {
  const name = String(item.name ?? "?");
  return block(
    "tool-call",
    h("span", {}, "Tool call ", h("code", {}, name)),
    h("p", { class: "label" }, "Arguments"),
    h("pre", { class: "arguments" }, prettyJson(item.arguments)),
    h("p", { class: "label" }, "Output"),
    output ? h("pre", { class: "output" }, prettyJson(textOf(output.output))) : h("p", { class: "muted" }, "(no output recorded)"),
  );
}

/** The prompt: instructions and input messages (a string input is one user message). */
function prompt(params: Json): HTMLElement {
  const input = typeof params.input === "string" ? [{ role: "user", content: params.input }] : Array.isArray(params.input) ? params.input : [];
  const tools = Array.isArray(params.tools) ? params.tools.filter(isObject) : [];
  return h(
    "section",
    { class: "prompt" },
    h("h3", {}, "Prompt"),
    typeof params.instructions === "string" && params.instructions
      ? block("message system", "Instructions", h("div", { class: "text" }, params.instructions))
      : null,
    input
      .filter(isObject)
      .map((item) => (item.type === "function_call_output" ? toolCall({ name: "(earlier call)", arguments: "" }, item) : message(item, false))),
    tools.length
      ? h(
          "details",
          { class: "tools" },
          h("summary", {}, `${tools.length} tool${tools.length === 1 ? "" : "s"} offered: ${tools.map((t) => String(t.name ?? t.type)).join(", ")}`),
          h("pre", {}, prettyJson(tools)),
        )
      : null,
  );
}

/** The model's output split into turns: a turn ends where tool outputs come back to the model. */
function turns(output: Json[]): HTMLElement[] {
  const outputs = new Map(output.filter((item) => item.type === "function_call_output").map((item) => [String(item.call_id), item]));
  const lastMessage = output.map((item) => item.type === "message" || (item.type === undefined && "role" in item)).lastIndexOf(true);
  const sections: HTMLElement[] = [];
  let current: HTMLElement[] = [];
  const close = () => {
    if (current.length === 0) return;
    sections.push(h("section", { class: "turn" }, h("h3", {}, `Model turn ${sections.length + 1}`), current));
    current = [];
  };
  output.forEach((item, i) => {
    if (item.type === "function_call_output") {
      // Shown with its call; the next model item starts a new turn.
      if (output[i + 1]?.type !== "function_call_output") close();
      return;
    }
    if (item.type === "reasoning") current.push(reasoning(item));
    else if (item.type === "function_call") current.push(toolCall(item, outputs.get(String(item.call_id))));
    else if (item.type === "message" || "role" in item) current.push(message(item, i === lastMessage));
    else current.push(block("other", String(item.type ?? "item"), h("pre", {}, prettyJson(item))));
  });
  close();
  return sections;
}

/** Fields of the verify response beyond the request and the trajectory: the reward's explanation. */
export function verifierFields(record: Json): [string, unknown][] {
  const skip = new Set(["responses_create_params", "response", "reward", "reward_components", "agent_ref"]);
  return Object.entries(record).filter(([key]) => !skip.has(key) && !key.startsWith("_ng_"));
}

function fieldTable(entries: [string, unknown][], caption: string): HTMLElement | null {
  if (entries.length === 0) return null;
  return h(
    "table",
    { class: "fields" },
    h("caption", {}, caption),
    h(
      "tbody",
      {},
      entries.map(([key, value]) =>
        h("tr", {}, h("th", { scope: "row" }, key), h("td", {}, typeof value === "object" && value !== null ? h("pre", {}, prettyJson(value)) : String(value))),
      ),
    ),
  );
}

function usage(response: Json): HTMLElement | null {
  const u = isObject(response.usage) ? response.usage : null;
  if (!u) return null;
  const reasoningTokens = isObject(u.output_tokens_details) ? u.output_tokens_details.reasoning_tokens : undefined;
  const entries: [string, unknown][] = [
    ["input tokens", u.input_tokens],
    ["output tokens", u.output_tokens],
    ...(typeof reasoningTokens === "number" ? ([["reasoning tokens", reasoningTokens]] as [string, unknown][]) : []),
    ["total tokens", u.total_tokens],
  ];
  return h(
    "dl",
    { class: "tokens" },
    entries.filter(([, v]) => typeof v === "number").map(([k, v]) => h("div", {}, h("dt", {}, k), h("dd", {}, formatNumber(v as number)))),
  );
}

/** The score at a glance: reward, its components, token counts. */
function scorecard(record: Json): HTMLElement {
  const reward = record.reward;
  const components = isObject(record.reward_components) ? Object.entries(record.reward_components) : [];
  return h(
    "section",
    { class: "scorecard" },
    h(
      "div",
      { class: "reward" },
      h("span", { class: "label" }, "Reward"),
      h("strong", { "data-testid": "reward" }, typeof reward === "number" ? formatNumber(reward) : String(reward)),
    ),
    components.length
      ? h(
          "dl",
          { class: "components" },
          components.map(([k, v]) => h("div", {}, h("dt", {}, k), h("dd", {}, typeof v === "number" ? formatNumber(v) : String(v)))),
        )
      : null,
    isObject(record.response) ? usage(record.response) : null,
  );
}

/** A failure record: why it failed (its class, and the detailed code when it says more), then whatever of the rollout it kept. */
function failure(record: Json): HTMLElement {
  const code = typeof record.failure_code === "string" && record.failure_code !== record.failure_class ? record.failure_code : null;
  return h(
    "section",
    { class: "failure-card", role: "note" },
    h(
      "h3",
      {},
      "Failed: ",
      h("code", { "data-testid": "failure-class" }, String(record.failure_class ?? "unknown")),
      code ? h("span", { class: "muted" }, " (", h("code", { "data-testid": "failure-code" }, code), ")") : null,
    ),
    h("p", {}, String(record.message ?? "")),
    typeof record.attempts === "number" ? h("p", { class: "muted" }, `after ${record.attempts} attempt${record.attempts === 1 ? "" : "s"}`) : null,
  );
}

export function rolloutView(record: Json, kind: "rollout" | "failure"): HTMLElement {
  const params = isObject(record.responses_create_params) ? record.responses_create_params : {};
  const response = isObject(record.response) ? record.response : null;
  const output = response && Array.isArray(response.output) ? response.output.filter(isObject) : [];
  const fields = verifierFields(record).filter(([key]) => kind === "rollout" || !["failure_class", "failure_code", "message", "attempts"].includes(key));
  return h(
    "article",
    { class: "rollout" },
    kind === "failure" ? failure(record) : scorecard(record),
    params.input !== undefined ? prompt(params) : null,
    output.length ? turns(output) : kind === "rollout" ? h("p", { class: "muted" }, "The response has no output items.") : null,
    fieldTable(fields, kind === "failure" ? "Fields" : "Verifier fields"),
    h("details", { class: "raw" }, h("summary", {}, "Raw record (JSON)"), h("pre", {}, prettyJson(record))),
  );
}
