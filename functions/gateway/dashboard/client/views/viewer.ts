// The rollout viewer: one result of a job at a time, filtered by kind, reward range, failure class or environment;
// previous / next (buttons, or the arrow keys and j / k), and an address that opens the same rollout again.
import type { JobSummary, RecordEntry, RecordsPage } from "../../../../../contracts/job-views.js";
import { getJson } from "../api.js";
import { h, replace, status } from "../dom.js";
import { rolloutView } from "../conversation.js";
import { type View, route } from "./context.js";

/** The viewer asks with `records=true`: every entry carries its record. */
type PageWithRecords = RecordsPage & { data: (RecordEntry & { record: Record<string, unknown> })[] };

const FILTERS = ["kind", "environment", "min_reward", "max_reward", "failure_class"] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

const failureClasses = new Map<string, Promise<string[]>>();

/** The job's failure classes, for the filter's suggestions (asked once per job and page load). */
function classesOf(id: string): Promise<string[]> {
  let classes = failureClasses.get(id);
  if (!classes) {
    classes = getJson<JobSummary>(`/v1/jobs/${id}/summary?task_limit=0`).then(
      (summary) => Object.keys(summary.failures),
      () => [],
    );
    failureClasses.set(id, classes);
  }
  return classes;
}

/** Which button had focus before a step: the new page gives it back, so paging with the keyboard keeps its place. */
let refocus: "prev" | "next" | null = null;

function filterForm(id: string, filters: Filters): HTMLElement {
  const field = (name: string, label: string, control: HTMLElement) => h("div", { class: "field" }, h("label", { for: `filter-${name}` }, label), control);
  const kind = h(
    "select",
    { id: "filter-kind", name: "kind" },
    [
      ["all", "All results"],
      ["rollout", "Scored rollouts"],
      ["failure", "Failures"],
    ].map(([value, label]) => h("option", { value: value!, selected: (filters.kind ?? "all") === value }, label!)),
  );
  const number = (name: "min_reward" | "max_reward") =>
    h("input", { id: `filter-${name}`, name, type: "number", step: "any", inputmode: "decimal", value: filters[name] ?? "" });
  const classes = h("datalist", { id: "failure-classes" });
  void classesOf(id).then((list) => classes.replaceChildren(...list.map((name) => h("option", { value: name }))));
  const form = h(
    "form",
    { class: "filters", role: "search", "aria-label": "Filter the results" },
    field("kind", "Show", kind),
    field("min_reward", "Reward from", number("min_reward")),
    field("max_reward", "to", number("max_reward")),
    field(
      "failure_class",
      "Failure class",
      h("input", { id: "filter-failure_class", name: "failure_class", list: "failure-classes", value: filters.failure_class ?? "" }),
    ),
    field("environment", "Environment", h("input", { id: "filter-environment", name: "environment", value: filters.environment ?? "" })),
    classes,
    h(
      "div",
      { class: "actions" },
      h("button", { type: "submit" }, "Apply"),
      h("a", { class: "button secondary", href: route(["jobs", id, "rollouts"]) }, "Clear"),
    ),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const next: Record<string, string> = {};
    for (const name of FILTERS) {
      const value = String(data.get(name) ?? "").trim();
      if (value && !(name === "kind" && value === "all")) next[name] = value;
    }
    location.hash = route(["jobs", id, "rollouts"], next);
  });
  return form;
}

export function viewerView(view: View): void {
  const id = view.path[0] ?? "";
  const filters: Filters = {};
  for (const name of FILTERS) {
    const value = view.query.get(name);
    if (value) filters[name] = value;
  }
  const at = view.query.get("at");
  const position = Number(view.query.get("offset") ?? 0);
  const body = h("div", { class: "viewer-body" }, status("Loading…"));
  replace(
    view.root,
    h(
      "nav",
      { class: "crumbs", "aria-label": "Breadcrumb" },
      h("a", { href: route(["jobs"]) }, "Jobs"),
      " / ",
      h("a", { href: route(["jobs", id]) }, h("code", {}, id)),
      " / rollouts",
    ),
    h("h1", {}, "Rollout viewer"),
    filterForm(id, filters),
    body,
  );

  const query = new URLSearchParams({ ...filters, limit: "1", ...(at ? { at } : { offset: String(position) }) });
  getJson<PageWithRecords>(`/v1/jobs/${id}/records?${query}`, view.signal).then(
    (page) => {
      const entry = page.data[0];
      if (!entry) {
        replace(body, status(page.total === 0 ? "No results match this filter." : `There are ${page.total} matching results; this one is past the end.`));
        return;
      }
      const permalink = route(["jobs", id, "rollouts"], { ...filters, at: `${entry.task_index}:${entry.rollout_index}` });
      // The address becomes the rollout's own link (without adding a history entry).
      if (location.hash !== permalink) history.replaceState(null, "", permalink);
      const step = (to: number, which: "prev" | "next") => () => {
        refocus = which;
        location.hash = route(["jobs", id, "rollouts"], { ...filters, offset: to });
      };
      const prev = h("button", { type: "button", "data-step": "prev", disabled: entry.position <= 0, onclick: step(entry.position - 1, "prev") }, "← Previous");
      const next = h(
        "button",
        { type: "button", "data-step": "next", disabled: entry.position + 1 >= page.total, onclick: step(entry.position + 1, "next") },
        "Next →",
      );
      const where = h(
        "div",
        { class: "pager" },
        prev,
        h("span", { class: "position", role: "status" }, `Result ${entry.position + 1} of ${page.total}`),
        next,
        h("a", { class: "permalink", href: permalink }, "Link to this rollout"),
      );
      const title = h(
        "h2",
        { class: "rollout-title" },
        entry.kind === "failure" ? "Failure " : "Rollout ",
        h("code", {}, entry.rollout_id),
        h("span", { class: "muted" }, ` · task ${entry.task_index}, repeat ${entry.rollout_index} · ${entry.environment}`),
      );
      replace(body, where, title, rolloutView(entry.record, entry.kind));
      if (refocus) (refocus === "prev" ? (prev.disabled ? next : prev) : next.disabled ? prev : next).focus();
      refocus = null;
      const keys = (event: KeyboardEvent) => {
        const target = event.target as HTMLElement | null;
        if (event.altKey || event.ctrlKey || event.metaKey || target?.closest("input, select, textarea, [contenteditable]")) return;
        if ((event.key === "ArrowLeft" || event.key === "k") && !prev.disabled) prev.click();
        else if ((event.key === "ArrowRight" || event.key === "j") && !next.disabled) next.click();
      };
      document.addEventListener("keydown", keys, { signal: view.signal });
    },
    (error: unknown) => {
      if (!view.signal.aborted) replace(body, status(`Could not read the results: ${error instanceof Error ? error.message : String(error)}`, "error"));
    },
  );
}
