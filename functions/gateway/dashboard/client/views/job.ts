// One job: progress and counts by state (live while it runs), cancel and resume, downloads, metrics and distributions.
import type { JobSummary } from "../../../../../contracts/job-views.js";
import type { JobInfo } from "../../../../../contracts/jobs.js";
import { download, getJson, jobPath, sendJson } from "../api.js";
import { formatDuration, formatNumber, formatTime, h, replace, status } from "../dom.js";
import { type View, poll, route } from "./context.js";
import { metricsSection, summarySection } from "./job-summary.js";
import { progressBar, stateBadge, throughput } from "./jobs.js";

function counts(info: JobInfo): HTMLElement {
  const entries: [string, string][] = [
    ["total", formatNumber(info.counts.total)],
    ["queued", formatNumber(info.counts.queued)],
    ["running", formatNumber(info.counts.running)],
    ["done", formatNumber(info.counts.done)],
    ["failed", formatNumber(info.counts.failed)],
    ["elapsed", formatDuration(info.elapsed_seconds)],
    ["throughput", throughput(info)],
  ];
  return h(
    "dl",
    { class: "counts" },
    entries.map(([k, v]) => h("div", { class: k }, h("dt", {}, k), h("dd", { "data-testid": `count-${k}` }, v))),
  );
}

export function jobView(view: View): void {
  const id = view.path[0] ?? "";
  const environment = view.query.get("environment") ?? undefined;
  const header = h("div", { class: "heading" });
  const overview = h("section", { class: "card", "aria-labelledby": "progress-title" });
  const actions = h("div", { class: "actions" });
  const message = h("div", { class: "message", "aria-live": "polite" });
  const metrics = h("div", {});
  const details = h("div", {});
  replace(
    view.root,
    h("nav", { class: "crumbs", "aria-label": "Breadcrumb" }, h("a", { href: route(["jobs"]) }, "Jobs"), " / ", h("code", {}, id)),
    header,
    overview,
    actions,
    message,
    metrics,
    details,
  );

  let last: JobInfo | undefined;
  let summaryAt = 0;
  let summaryBusy = false;
  /** Whether the poll loop is alive (it stops when the job does; cancel and resume start it again). */
  let polling = false;

  const act = async (label: string, run: () => Promise<unknown>) => {
    replace(message, status(`${label}…`));
    try {
      await run();
      replace(message, status(`${label}: done.`));
      summaryAt = 0;
      if (!polling) follow();
    } catch (error) {
      replace(message, status(`${label} failed: ${error instanceof Error ? error.message : String(error)}`, "error"));
    }
  };

  const drawActions = (info: JobInfo) => {
    const running = info.status === "running";
    const unfinished = info.counts.done < info.counts.total;
    replace(
      actions,
      running
        ? h("button", { type: "button", class: "danger", onclick: () => act("Cancelling the job", () => sendJson("DELETE", jobPath(id))) }, "Cancel job")
        : null,
      !running && unfinished
        ? h("button", { type: "button", onclick: () => act("Resuming the job", () => sendJson("POST", jobPath(id, `/resume`))) }, "Resume job")
        : null,
      h("a", { class: "button", href: route(["jobs", id, "rollouts"], { environment }) }, "Browse rollouts"),
      h(
        "button",
        { type: "button", class: "secondary", onclick: () => act("Downloading the scored JSONL", () => download(jobPath(id, `/rollouts`), `${id}.jsonl`)) },
        "Download scored JSONL",
      ),
      info.counts.failed
        ? h(
            "button",
            {
              type: "button",
              class: "secondary",
              onclick: () => act("Downloading the failures", () => download(jobPath(id, `/failures`), `${id}.failures.jsonl`)),
            },
            "Download failures",
          )
        : null,
    );
  };

  const drawSummary = async (info: JobInfo) => {
    if (summaryBusy) return;
    summaryBusy = true;
    try {
      const query = new URLSearchParams(environment ? { environment } : {});
      const summary = await getJson<JobSummary>(jobPath(id, `/summary?${query}`), view.signal);
      const picker =
        summary.environments.length > 1 || environment
          ? h(
              "nav",
              { class: "env-picker", "aria-label": "Environment" },
              "Environment: ",
              h("a", { href: route(["jobs", id]), "aria-current": environment ? null : "page" }, "all"),
              summary.environments.flatMap((e) => [
                " · ",
                h(
                  "a",
                  { href: route(["jobs", id], { environment: e.environment }), "aria-current": environment === e.environment ? "page" : null },
                  e.environment,
                ),
              ]),
            )
          : null;
      replace(details, picker, summarySection(id, summary, environment));
      summaryAt = info.counts.done + info.counts.failed;
    } finally {
      summaryBusy = false;
    }
  };

  const refresh = async (): Promise<number | null> => {
    try {
      const info = await getJson<JobInfo>(jobPath(id), view.signal);
      replace(header, h("h1", {}, "Job ", h("code", {}, id), " ", stateBadge(info.status)));
      replace(
        overview,
        h("h2", { id: "progress-title", class: "visually-hidden" }, "Progress"),
        h(
          "p",
          { class: "muted" },
          `${info.environment ?? "mixed environments"} · ${info.tasks} task${info.tasks === 1 ? "" : "s"} × ${info.num_repeats} repeats · created ${formatTime(info.created_at)}${info.owner ? ` by ${info.owner}` : ""}`,
        ),
        progressBar(info, "job progress", true),
        counts(info),
        info.skipped_lines?.length ? h("p", { class: "muted" }, `${info.skipped_lines.length} invalid line(s) were skipped when the job was created.`) : null,
      );
      if (last?.status !== info.status || last.counts.failed !== info.counts.failed) drawActions(info);
      if (info.metrics && !last?.metrics) replace(metrics, metricsSection(info.metrics));
      // Distributions are redrawn as results arrive, but not on every tick of a large job.
      const finished = info.counts.done + info.counts.failed;
      if (
        summaryAt === 0 ||
        finished - summaryAt >= Math.max(1, info.counts.total / 20) ||
        (info.status !== "running" && finished !== summaryAt) ||
        last?.status !== info.status
      ) {
        await drawSummary(info);
      }
      last = info;
      polling = info.status === "running";
      return polling ? 1000 : null;
    } catch (error) {
      if (view.signal.aborted) return null;
      replace(message, status(`Could not read the job: ${error instanceof Error ? error.message : String(error)}`, "error"));
      return 5000;
    }
  };
  const follow = () => {
    polling = true;
    poll(view.signal, refresh);
  };
  follow();
}
