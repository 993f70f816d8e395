// Jobs: every job with its progress, updated while any runs; and a form to start one.
import type { JobInfo } from "../../../../../contracts/jobs.js";
import { getJson } from "../api.js";
import { formatDuration, formatNumber, formatPercent, formatTime, h, replace, status } from "../dom.js";
import { type View, poll, route } from "./context.js";
import { newJobForm } from "./new-job.js";

interface JobList {
  data: JobInfo[];
  has_more: boolean;
  last_id?: string;
}

export function throughput(info: JobInfo): string {
  const finished = info.counts.done + info.counts.failed;
  return info.elapsed_seconds > 0 && finished > 0 ? `${formatNumber(finished / info.elapsed_seconds)}/s` : "–";
}

export function progressBar(info: JobInfo, label: string, wide = false): HTMLElement {
  const bar = h("progress", { max: 1, value: info.progress, "aria-label": label });
  return h(
    "span",
    { class: wide ? "progress wide" : "progress" },
    bar,
    h("span", { class: "percent", "data-testid": "percent" }, formatPercent(info.progress)),
  );
}

export function stateBadge(state: string): HTMLElement {
  return h("span", { class: `badge ${state}` }, state);
}

/**
 * The state as the jobs table shows it: a running job that recorded nothing for its stall time is "stalled" (the Job
 * object says so), and a job with failures says how many, in amber, instead of a plain green "completed".
 */
export function jobStateBadge(info: JobInfo): HTMLElement {
  if (info.status === "running" && info.stalled) {
    const { since, heals, max_heals } = info.stalled;
    const title = `Nothing recorded since ${formatTime(since)}; re-enqueued what was missing ${heals} of at most ${max_heals} times`;
    return h("span", { class: "badge stalled", title, "data-testid": "state" }, "stalled");
  }
  const failed = info.counts.failed;
  if (failed > 0 && info.status !== "cancelled") {
    const title = `${formatNumber(failed)} of ${formatNumber(info.counts.total)} rollouts failed`;
    return h("span", { class: "badge with-failures", title, "data-testid": "state" }, `${info.status}, ${formatNumber(failed)} failed`);
  }
  return h("span", { class: `badge ${info.status}`, "data-testid": "state" }, info.status);
}

/** The mean reward over every environment's scored rollouts (each weighted by its rollouts), once the job has metrics. */
export function meanReward(info: JobInfo): number | null {
  let sum = 0;
  let count = 0;
  for (const metrics of Object.values(info.metrics ?? {})) {
    const mean = metrics.agent_metrics["mean/reward"];
    if (typeof mean !== "number") continue;
    const rollouts = metrics.group_level_metrics.reduce((n, group) => n + (typeof group.num_rollouts === "number" ? group.num_rollouts : 0), 0);
    sum += mean * Math.max(rollouts, 1);
    count += Math.max(rollouts, 1);
  }
  return count > 0 ? sum / count : null;
}

/** A name that may break after its underscores (a long environment name does not widen the table past the page). */
function breakable(name: string): (string | HTMLElement)[] | null {
  if (!name) return null;
  return name.split(/(?<=_)/).flatMap((part, i) => (i === 0 ? [part] : [h("wbr"), part]));
}

const COLUMNS = ["Job", "Environment", "Size", "State", "Progress", "Mean reward", "Elapsed", "Throughput", "Created"];

/** One row, rebuilt in place on each update so focus and scroll stay where the user left them. */
function fillRow(row: HTMLTableRowElement, info: JobInfo): void {
  const size = `${formatNumber(info.tasks)} × ${info.num_repeats} = ${formatNumber(info.counts.total)}`;
  const reward = meanReward(info);
  const cells = [
    // One line, cut with an ellipsis: the whole id is the link's title and what a copy takes.
    // Under it, the token name that created the job (a job older than owners has none: only admin sees it).
    [
      h("a", { href: route(["jobs", info.id]), title: info.id, class: "job-id" }, h("code", {}, info.id)),
      info.owner ? h("span", { class: "job-owner muted", title: `created by ${info.owner}`, "data-testid": "owner" }, info.owner) : null,
    ],
    // A mixed job names its environments once it has metrics (per environment); until then it is "mixed".
    breakable(info.environment ?? (info.metrics ? Object.keys(info.metrics).join(", ") : "")) || h("span", { class: "muted" }, "mixed"),
    size,
    jobStateBadge(info),
    progressBar(info, `progress of ${info.id}`),
    reward === null ? h("span", { class: "muted" }, "–") : h("span", { "data-testid": "mean-reward" }, formatNumber(reward)),
    formatDuration(info.elapsed_seconds),
    throughput(info),
    formatTime(info.created_at),
  ];
  if (row.cells.length !== cells.length) {
    row.replaceChildren(...cells.map((cell, i) => h("td", { "data-label": COLUMNS[i]! }, cell)));
    return;
  }
  // Only changed cells are replaced: a focused link keeps its focus.
  cells.forEach((cell, i) => {
    const td = row.cells[i]!;
    const next = h("td", {}, cell);
    if (td.innerHTML !== next.innerHTML) td.replaceChildren(...next.childNodes);
  });
}

export function jobsView(view: View): void {
  const tbody = h("tbody", {});
  const rows = new Map<string, HTMLTableRowElement>();
  const message = h("div", { class: "message" });
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "Older jobs");
  let limit = 50;
  more.addEventListener("click", () => {
    limit += 50;
    void refresh();
  });
  const table = h(
    "table",
    { class: "jobs responsive" },
    h("caption", { class: "visually-hidden" }, "Jobs, newest first"),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        COLUMNS.map((t) => h("th", { scope: "col" }, t)),
      ),
    ),
    tbody,
  );
  const empty = h("p", { class: "muted", hidden: true }, "No jobs yet. Start one above, or with `npx edgegym collect`.");
  replace(
    view.root,
    h("div", { class: "heading" }, h("h1", {}, "Jobs")),
    newJobForm(view.signal),
    message,
    h("div", { class: "table-wrap" }, table),
    empty,
    more,
  );

  const refresh = async (): Promise<number | null> => {
    try {
      const list = await getJson<JobList>(`/v1/jobs?limit=${limit}`, view.signal);
      replace(message);
      const seen = new Set<string>();
      list.data.forEach((info, i) => {
        seen.add(info.id);
        let row = rows.get(info.id);
        if (!row) {
          row = h("tr", { "data-job": info.id });
          rows.set(info.id, row);
        }
        fillRow(row, info);
        if (tbody.children[i] !== row) tbody.insertBefore(row, tbody.children[i] ?? null);
      });
      for (const [id, row] of rows) {
        if (!seen.has(id)) {
          row.remove();
          rows.delete(id);
        }
      }
      empty.hidden = list.data.length > 0;
      more.hidden = !list.has_more;
      return list.data.some((info) => info.status === "running") ? 1000 : 10_000;
    } catch (error) {
      if (view.signal.aborted) return null;
      replace(message, status(`Could not list the jobs: ${error instanceof Error ? error.message : String(error)}`, "error"));
      return 5000;
    }
  };
  poll(view.signal, refresh);
}
