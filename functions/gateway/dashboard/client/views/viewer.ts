// The rollout viewer: one result of a job at a time, filtered by kind, reward range, failure class or environment;
// previous / next (buttons, or the arrow keys and j / k), and an address that opens the same rollout again.
import type { JobSummary, RecordEntry, RecordsPage } from "../../../../../contracts/job-views.js";
import { getJson, jobPath } from "../api.js";
import { h, replace, status } from "../dom.js";
import { rolloutView } from "../conversation.js";
import { type View, route } from "./context.js";

/** The viewer asks with `records=true`: every entry carries its record. */
type PageWithRecords = RecordsPage & { data: (RecordEntry & { record: Record<string, unknown> })[] };

const FILTERS = ["kind", "environment", "min_reward", "max_reward", "failure_class"] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

const summaries = new Map<string, Promise<JobSummary | null>>();

/** The job's summary, for the filters' choices: its environments and failure classes (asked once per job and page load). */
function summaryOf(id: string): Promise<JobSummary | null> {
  let summary = summaries.get(id);
  if (!summary) {
    summary = getJson<JobSummary>(jobPath(id, `/summary?task_limit=0`)).catch(() => null);
    summaries.set(id, summary);
  }
  return summary;
}

/** A reward bound as a person reads it: a histogram bar's edge just below 1.2 (1.1999999999999997) shows as 1.2. */
export function formatBound(value: string): string {
  const n = Number(value);
  return value.trim() === "" || !Number.isFinite(n) ? value : String(Number(n.toPrecision(6)));
}

/** A select of the values the job has, with "Any" first; a value in the address the job lacks stays selectable. */
function choices(name: "environment" | "failure_class", current: string | undefined, values: Promise<string[]>): HTMLSelectElement {
  const any = h("option", { value: "" }, "Any");
  const select = h("select", { id: `filter-${name}`, name }, any);
  const fill = (list: string[]) => {
    const all = current && !list.includes(current) ? [...list, current] : list;
    select.replaceChildren(any, ...all.map((value) => h("option", { value, selected: value === current }, value)));
  };
  fill([]);
  void values.then(fill);
  return select;
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
  // A bound is shown rounded; left as shown, the exact one in the address is what Apply keeps (a bar's range stays exact).
  const exact: Partial<Record<"min_reward" | "max_reward", { shown: string; value: string }>> = {};
  const number = (name: "min_reward" | "max_reward") => {
    const value = filters[name] ?? "";
    exact[name] = { shown: formatBound(value), value };
    return h("input", { id: `filter-${name}`, name, type: "number", step: "any", inputmode: "decimal", value: exact[name].shown });
  };
  const summary = summaryOf(id);
  const environments = summary.then((s) => (s ? s.environments.map((e) => e.environment) : []));
  const classes = summary.then((s) => (s ? Object.keys(s.failures) : []));
  const form = h(
    "form",
    { class: "filters", role: "search", "aria-label": "Filter the results" },
    field("kind", "Show", kind),
    field("min_reward", "Reward from", number("min_reward")),
    field("max_reward", "to", number("max_reward")),
    field("failure_class", "Failure class", choices("failure_class", filters.failure_class, classes)),
    field("environment", "Environment", choices("environment", filters.environment, environments)),
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
      let value = String(data.get(name) ?? "").trim();
      if ((name === "min_reward" || name === "max_reward") && value === exact[name]?.shown) value = exact[name].value;
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
  getJson<PageWithRecords>(jobPath(id, `/records?${query}`), view.signal).then(
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
