// The dashboard's reads of a Job's results table: distributions and tallies from the stored summaries, and filtered pages.
import type { BrowseEntry, BrowsePage, BrowseQuery, EnvironmentTally, JobSummary, SummaryOptions, TaskPassRate } from "../../contracts/job-views.js";
import { histogram } from "../../metrics/histogram.js";

const DEFAULT_BINS = 10;
const DEFAULT_TASK_LIMIT = 1000;

type Value = string | number | null;

function asNumber(value: Value): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** The numeric entries of a stored `reward_components` object (JSON text out of SQLite). */
function components(text: Value): [string, number][] {
  if (typeof text !== "string") return [];
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return [];
    return Object.entries(parsed).filter((entry): entry is [string, number] => typeof entry[1] === "number" && Number.isFinite(entry[1]));
  } catch {
    return [];
  }
}

/** One pass over the scored rollouts (a cursor, never the whole table in memory at once but for the reward values). */
export function jobSummary(sql: SqlStorage, options: SummaryOptions = {}): JobSummary {
  const bins = options.bins ?? DEFAULT_BINS;
  const threshold = options.pass_threshold ?? 1;
  const only = options.environment;
  const where = only === undefined ? "" : " AND environment = ?";
  const bind = only === undefined ? [] : [only];

  const rewards: number[] = [];
  const byComponent = new Map<string, number[]>();
  const tasks = new Map<string, TaskPassRate & { sum: number }>();
  const rows = sql.exec<{ task_index: number; environment: string; reward: Value; components: Value }>(
    `SELECT task_index, environment, json_extract(summary, '$.reward') AS reward, json_extract(summary, '$.reward_components') AS components
     FROM results WHERE kind = 'rollout'${where} ORDER BY task_index, rollout_index`,
    ...bind,
  );
  for (const row of rows) {
    const reward = asNumber(row.reward);
    const key = `${row.environment}\u0000${row.task_index}`;
    let task = tasks.get(key);
    if (!task) {
      task = { task_index: row.task_index, environment: row.environment, rollouts: 0, passed: 0, mean_reward: 0, sum: 0 };
      tasks.set(key, task);
    }
    task.rollouts++;
    if (reward !== null) {
      rewards.push(reward);
      task.sum += reward;
      if (reward >= threshold) task.passed++;
    }
    for (const [name, value] of components(row.components)) {
      const list = byComponent.get(name) ?? [];
      list.push(value);
      byComponent.set(name, list);
    }
  }

  const perTask = [...tasks.values()].map(({ sum, ...task }) => ({ ...task, mean_reward: task.rollouts ? sum / task.rollouts : 0 }));
  const componentHistograms: JobSummary["components"] = {};
  for (const [name, values] of [...byComponent].sort(([a], [b]) => a.localeCompare(b))) {
    const h = histogram(values, bins);
    if (h) componentHistograms[name] = h;
  }

  const failures: Record<string, number> = {};
  for (const row of sql.exec<{ failure_class: Value; n: number }>(
    `SELECT json_extract(summary, '$.failure_class') AS failure_class, COUNT(*) AS n FROM results WHERE kind = 'failure'${where} GROUP BY 1 ORDER BY 2 DESC`,
    ...bind,
  )) {
    failures[typeof row.failure_class === "string" ? row.failure_class : "unknown"] = row.n;
  }

  const environments = sql
    .exec<{ environment: string; rollouts: number; failures: number; mean_reward: number | null }>(
      `SELECT environment, SUM(kind = 'rollout') AS rollouts, SUM(kind = 'failure') AS failures,
       AVG(CASE WHEN kind = 'rollout' THEN json_extract(summary, '$.reward') END) AS mean_reward
       FROM results WHERE 1 = 1${where} GROUP BY environment ORDER BY environment`,
      ...bind,
    )
    .toArray()
    .map((row): EnvironmentTally => ({ ...row }));

  return {
    environments,
    reward: histogram(rewards, bins),
    components: componentHistograms,
    pass_threshold: threshold,
    task_pass_rates: histogram(
      perTask.map((t) => t.passed / t.rollouts),
      bins,
    ),
    tasks: perTask.slice(0, options.task_limit ?? DEFAULT_TASK_LIMIT),
    tasks_total: perTask.length,
    failures,
  };
}

/** The WHERE clause (and its values) of a browse filter. */
function filter(query: BrowseQuery): { clause: string; values: (string | number)[] } {
  const parts: string[] = [];
  const values: (string | number)[] = [];
  const kind = query.failure_class !== undefined ? "failure" : query.min_reward !== undefined || query.max_reward !== undefined ? "rollout" : query.kind;
  if (kind !== "all") {
    parts.push("kind = ?");
    values.push(kind);
  }
  if (query.environment !== undefined) {
    parts.push("environment = ?");
    values.push(query.environment);
  }
  if (query.min_reward !== undefined) {
    parts.push("json_extract(summary, '$.reward') >= ?");
    values.push(query.min_reward);
  }
  if (query.max_reward !== undefined) {
    parts.push("json_extract(summary, '$.reward') <= ?");
    values.push(query.max_reward);
  }
  if (query.failure_class !== undefined) {
    parts.push(query.failure_class === "unknown" ? "json_extract(summary, '$.failure_class') IS NULL" : "json_extract(summary, '$.failure_class') = ?");
    if (query.failure_class !== "unknown") values.push(query.failure_class);
  }
  return { clause: parts.length ? parts.join(" AND ") : "1 = 1", values };
}

/** A page of the results matching the filter, in task-then-repeat order, and how many match. */
export function browseResults(sql: SqlStorage, query: BrowseQuery): BrowsePage {
  const { clause, values } = filter(query);
  const total = sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM results WHERE ${clause}`, ...values).one().n;
  let offset = query.offset;
  if (query.at) {
    const [task, repeat] = query.at;
    offset = sql
      .exec<{ n: number }>(
        `SELECT COUNT(*) AS n FROM results WHERE ${clause} AND (task_index < ? OR (task_index = ? AND rollout_index < ?))`,
        ...values,
        task,
        task,
        repeat,
      )
      .one().n;
  }
  const entries = sql
    .exec<Omit<BrowseEntry, "reward" | "failure_class"> & { reward: Value; failure_class: Value }>(
      `SELECT rollout_id, kind, task_index, rollout_index, environment, object_key, offset, length,
       json_extract(summary, '$.reward') AS reward, json_extract(summary, '$.failure_class') AS failure_class
       FROM results WHERE ${clause} ORDER BY task_index, rollout_index LIMIT ? OFFSET ?`,
      ...values,
      query.limit,
      offset,
    )
    .toArray()
    .map((row) => ({ ...row, reward: asNumber(row.reward), failure_class: typeof row.failure_class === "string" ? row.failure_class : null }));
  return { total, offset, entries };
}
