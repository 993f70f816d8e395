// Starting a job from the browser: an environment, repeats, and rows (pasted, loaded from a file, or the environment's example).
import type { JobInfo } from "../../../../../contracts/jobs.js";
import type { EnvironmentDescription } from "../../../../../contracts/rpc.js";
import { ApiError, getJson, request } from "../api.js";
import { h, replace, status } from "../dom.js";
import { route } from "./context.js";

export type DescribedEnvironment = EnvironmentDescription & { examples?: Record<string, unknown>[] };

let environments: Promise<DescribedEnvironment[]> | undefined;

/** The registered environments, asked once per page load. */
export function listEnvironments(): Promise<DescribedEnvironment[]> {
  environments ??= getJson<{ data: DescribedEnvironment[] }>("/v1/environments").then(
    (answer) => answer.data,
    (error: unknown) => {
      environments = undefined;
      throw error;
    },
  );
  return environments;
}

function problems(error: ApiError): HTMLElement | null {
  if (error.issues.length === 0) return null;
  return h(
    "ul",
    { class: "issues" },
    error.issues
      .slice(0, 20)
      .map((issue) => h("li", {}, `${issue.line !== undefined ? `line ${issue.line}: ` : ""}${issue.path.join(".") || "(row)"}: ${issue.message}`)),
  );
}

export function newJobForm(signal: AbortSignal): HTMLElement {
  const select = h("select", { id: "job-environment", name: "environment" }, h("option", { value: "" }, "each row's agent_ref"));
  const repeats = h("input", { id: "job-repeats", name: "num_repeats", type: "number", min: 1, max: 1024, value: 4, inputmode: "numeric" });
  const rows = h("textarea", { id: "job-rows", name: "rows", rows: 6, spellcheck: "false", placeholder: '{"responses_create_params": {"input": "…"}, …}' });
  const file = h("input", { id: "job-file", type: "file", accept: ".jsonl,.json,.ndjson,application/x-ndjson" });
  const message = h("div", { class: "message" });
  const submit = h("button", { type: "submit" }, "Start job");
  let examples = new Map<string, string>();
  let filled = "";

  const fillExample = () => {
    // The example replaces the rows only while they are still the previous example (or empty): typed rows are kept.
    if (rows.value.trim() !== filled.trim()) return;
    filled = examples.get(select.value) ?? "";
    rows.value = filled;
  };
  select.addEventListener("change", fillExample);
  file.addEventListener("change", async () => {
    const chosen = file.files?.[0];
    if (chosen) rows.value = await chosen.text();
  });

  listEnvironments().then(
    (list) => {
      if (signal.aborted) return;
      examples = new Map(list.map((env) => [env.name, (env.examples ?? []).map((row) => JSON.stringify(row)).join("\n")]));
      for (const env of list) select.append(h("option", { value: env.name }, env.name));
      select.value = list[0]?.name ?? "";
      fillExample();
    },
    (error: unknown) => replace(message, status(`Could not list the environments: ${error instanceof Error ? error.message : String(error)}`, "error")),
  );

  const form = h(
    "form",
    { class: "new-job" },
    h("div", { class: "field" }, h("label", { for: "job-environment" }, "Environment"), select),
    h("div", { class: "field narrow" }, h("label", { for: "job-repeats" }, "Repeats"), repeats),
    h(
      "div",
      { class: "field wide" },
      h("label", { for: "job-rows" }, "Rows (NeMo Gym JSONL, one per line; the environment's example row is filled in)"),
      rows,
      h("label", { for: "job-file", class: "file" }, "…or load a file ", file),
    ),
    h("div", { class: "actions" }, submit),
    message,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    submit.disabled = true;
    replace(message, status("Uploading the rows…"));
    try {
      const query = new URLSearchParams({ num_repeats: repeats.value || "1" });
      if (select.value) query.set("environment", select.value);
      const response = await request(`/v1/jobs?${query}`, { method: "POST", headers: { "content-type": "application/x-ndjson" }, body: rows.value });
      const info = (await response.json()) as JobInfo;
      location.hash = route(["jobs", info.id]);
    } catch (error) {
      replace(
        message,
        status(`The job was not started: ${error instanceof Error ? error.message : String(error)}`, "error"),
        error instanceof ApiError ? problems(error) : null,
      );
    } finally {
      submit.disabled = false;
    }
  });
  return h("details", { class: "card start" }, h("summary", {}, "Start a job"), form);
}
