// How `edgegym jobs` prints jobs: one line a job (under a header, for `list`), and a finished job's metrics table.
import type { JobSnapshot } from "./gateway-client.js";
import { layout, metricsTable } from "./table.js";

/** The job in one line (status, cancel, resume). */
export function jobLine(job: JobSnapshot): string {
  const c = job.counts;
  const classes = Object.entries(c.failed_by_class ?? {}).filter(([, n]) => n > 0);
  const why = classes.length ? ` (${classes.map(([name, n]) => `${name} ${n}`).join(", ")})` : "";
  const stalled = job.stalled ? `  STALLED since ${new Date(job.stalled.since).toISOString()} (heals ${job.stalled.heals}/${job.stalled.max_heals})` : "";
  return `${job.id}  ${job.status.padEnd(9)}  ${(job.progress * 100).toFixed(1).padStart(5)}%  done ${c.done}  failed ${c.failed}${why}  running ${c.running}  queued ${c.queued}  of ${c.total}  ${job.environment ?? "(per row)"}  ${job.elapsed_seconds.toFixed(1)} s${stalled}`;
}

/** `jobs list`: newest first, one row a job under a header. */
export function jobsListing(jobs: JobSnapshot[]): string {
  if (jobs.length === 0) return "no jobs";
  const header = ["id", "status", "progress", "done", "failed", "running", "queued", "total", "environment", "elapsed"];
  const rows = jobs.map((job) => [
    job.id,
    job.stalled && job.status === "running" ? "stalled" : job.status,
    `${(job.progress * 100).toFixed(1)}%`,
    String(job.counts.done),
    String(job.counts.failed),
    String(job.counts.running),
    String(job.counts.queued),
    String(job.counts.total),
    job.environment ?? "(per row)",
    `${job.elapsed_seconds.toFixed(1)} s`,
  ]);
  return layout([header, ...rows]);
}

/** `jobs status`: the line, then, once the job has metrics, their table (one column per environment). */
export function jobStatus(job: JobSnapshot): string {
  const metrics = Object.entries(job.metrics ?? {});
  if (metrics.length === 0) return job.status === "running" ? `${jobLine(job)}\nmetrics once the job completes` : jobLine(job);
  const single = metrics.length === 1;
  const columns = metrics.map(([environment, m]) => {
    const rollouts = m.group_level_metrics.reduce((sum, g) => sum + (typeof g.num_rollouts === "number" ? g.num_rollouts : 0), 0);
    // Per environment counts exist only as the job's totals: with one environment they are its own.
    return { environment, rollouts: single ? job.counts.done : rollouts, failed: single ? job.counts.failed : undefined, metrics: m, repeats: job.num_repeats };
  });
  return `${jobLine(job)}\n\n${metricsTable(columns)}`;
}
