// A job's results reduced: metrics per environment, reward and component histograms, per-task pass rates, failures by class.
import type { JobSummary } from "../../../../../contracts/job-views.js";
import type { JobInfo } from "../../../../../contracts/jobs.js";
import { formatNumber, formatPercent, h } from "../dom.js";
import { histogramFigure } from "../histogram.js";
import { route } from "./context.js";

type Metrics = NonNullable<JobInfo["metrics"]>;

const isNumber = (value: unknown): value is number => typeof value === "number";

/** The headline keys: mean reward, the environment's key metrics, and majority@k at its highest k. */
function headlineKeys(metrics: Metrics): string[] {
  const keys = new Set<string>(["mean/reward"]);
  for (const m of Object.values(metrics)) {
    for (const key of Object.keys(m.key_metrics)) keys.add(key);
    const majority = Object.keys(m.agent_metrics).filter((k) => /^majority@\d+\/[^/]+$/.test(k));
    const top = Math.max(0, ...majority.map((k) => Number(k.slice(9, k.indexOf("/")))));
    for (const k of majority) if (k.startsWith(`majority@${top}/`)) keys.add(k);
  }
  return [...keys];
}

function metricsTable(keys: string[], metrics: Metrics, caption: string): HTMLElement {
  const environments = Object.keys(metrics);
  return h(
    "table",
    { class: "metrics" },
    h("caption", {}, caption),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, "Metric"),
        environments.map((env) => h("th", { scope: "col" }, env)),
      ),
    ),
    h(
      "tbody",
      {},
      keys.map((key) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, h("code", {}, key)),
          environments.map((env) => {
            const value = metrics[env]!.agent_metrics[key] ?? metrics[env]!.key_metrics[key];
            return h("td", { class: "number" }, isNumber(value) ? formatNumber(value, 4) : value === undefined ? "–" : String(value));
          }),
        ),
      ),
    ),
  );
}

export function metricsSection(metrics: Metrics): HTMLElement {
  const all = [...new Set(Object.values(metrics).flatMap((m) => Object.keys(m.agent_metrics)))].sort();
  return h(
    "section",
    { class: "card", "aria-labelledby": "metrics-title" },
    h("h2", { id: "metrics-title" }, "Metrics"),
    h("div", { class: "table-wrap" }, metricsTable(headlineKeys(metrics), metrics, "Headline metrics per environment")),
    h("details", {}, h("summary", {}, `All ${all.length} metrics`), h("div", { class: "table-wrap" }, metricsTable(all, metrics, "Every aggregate metric"))),
  );
}

function rewardRange(from: number, to: number, last: boolean): { min_reward: number; max_reward: number } {
  // A bar holds [from, to): the viewer's bounds are inclusive, so the upper one stops just short (but for the last bar).
  return { min_reward: from, max_reward: last ? to : to - Number.EPSILON * Math.max(1, Math.abs(to)) };
}

export function summarySection(id: string, summary: JobSummary, environment: string | undefined): HTMLElement[] {
  const sections: HTMLElement[] = [];
  const viewer = (query: Record<string, string | number | undefined>) => route(["jobs", id, "rollouts"], { environment, ...query });

  const distributions = h("section", { class: "card", "aria-labelledby": "rewards-title" }, h("h2", { id: "rewards-title" }, "Reward distribution"));
  if (summary.reward) {
    distributions.append(
      histogramFigure(summary.reward, {
        title: "Reward",
        unit: "rollouts",
        link: (bin, last) => viewer({ kind: "rollout", ...rewardRange(bin.from, bin.to, last) }),
      }),
    );
  } else distributions.append(h("p", { class: "muted" }, "No scored rollouts yet."));
  const components = Object.entries(summary.components);
  if (components.length) {
    distributions.append(
      h("h3", {}, "Reward components"),
      h(
        "div",
        { class: "small-multiples" },
        components.map(([name, histogram]) => histogramFigure(histogram, { title: name, unit: "rollouts" })),
      ),
    );
  }
  sections.push(distributions);

  const tasks = h(
    "section",
    { class: "card", "aria-labelledby": "tasks-title" },
    h("h2", { id: "tasks-title" }, "Per-task pass rates"),
    h("p", { class: "muted" }, `A repeat passes when its reward is at least ${summary.pass_threshold}.`),
  );
  if (summary.task_pass_rates) tasks.append(histogramFigure(summary.task_pass_rates, { title: "Pass rate over tasks", unit: "tasks" }));
  if (summary.tasks.length) {
    tasks.append(
      h(
        "details",
        { open: summary.tasks.length <= 12 },
        h(
          "summary",
          {},
          `${summary.tasks_total} task${summary.tasks_total === 1 ? "" : "s"}${summary.tasks_total > summary.tasks.length ? ` (first ${summary.tasks.length} shown)` : ""}`,
        ),
        h(
          "div",
          { class: "table-wrap" },
          h(
            "table",
            { class: "tasks" },
            h("caption", { class: "visually-hidden" }, "Pass rate of each task"),
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                ["Task", "Environment", "Passed", "Pass rate", "Mean reward"].map((t) => h("th", { scope: "col" }, t)),
              ),
            ),
            h(
              "tbody",
              {},
              summary.tasks.map((task) => {
                const rate = task.rollouts ? task.passed / task.rollouts : 0;
                const meter = h("meter", { min: 0, max: 1, value: rate, "aria-label": `task ${task.task_index} pass rate` });
                return h(
                  "tr",
                  {},
                  h("td", {}, h("a", { href: viewer({ kind: "rollout", environment: task.environment, at: `${task.task_index}:0` }) }, `#${task.task_index}`)),
                  h("td", {}, task.environment),
                  h("td", { class: "number" }, `${task.passed}/${task.rollouts}`),
                  h("td", {}, meter, " ", formatPercent(rate)),
                  h("td", { class: "number" }, formatNumber(task.mean_reward)),
                );
              }),
            ),
          ),
        ),
      ),
    );
  }
  sections.push(tasks);

  const failures = Object.entries(summary.failures);
  sections.push(
    h(
      "section",
      { class: "card", "aria-labelledby": "failures-title" },
      h("h2", { id: "failures-title" }, "Failures by class"),
      failures.length
        ? h(
            "ul",
            { class: "failure-classes" },
            failures.map(([name, count]) => h("li", {}, h("a", { href: viewer({ kind: "failure", failure_class: name }) }, h("code", {}, name)), ` ${count}`)),
          )
        : h("p", { class: "muted" }, "No failures."),
    ),
  );
  return sections;
}
