// The async feed's tables in the Job object: the groups (all repeats of a task) in the order they completed, and each
// cursor's position in that order. The object runs one call at a time, so a take moves a cursor once: no group twice.
import type { FeedGroup, GroupPage, GroupTake, JobStatus, ResultKind, ResultLocation } from "../../contracts/jobs.js";

type Location = ResultLocation & { kind: ResultKind };

export class GroupTables {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS groups_done (
      sequence INTEGER PRIMARY KEY AUTOINCREMENT, task_index INTEGER NOT NULL UNIQUE, completed_at INTEGER NOT NULL)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS group_cursors (name TEXT PRIMARY KEY, sequence INTEGER NOT NULL)`);
  }

  /** Marks each of these tasks complete once every repeat has a result (a scored rollout or a failure); once only. */
  markComplete(tasks: Iterable<number>, numRepeats: number, now = Date.now()): void {
    for (const task of new Set(tasks)) {
      this.sql.exec(
        `INSERT OR IGNORE INTO groups_done (task_index, completed_at) SELECT ?, ?
         WHERE (SELECT COUNT(*) FROM results WHERE kind IN ('rollout', 'failure') AND task_index = ?) >= ?`,
        task,
        now,
        task,
        numRepeats,
      );
    }
  }

  /** A job recorded before the feed existed has results but no groups: its complete tasks are marked, in task order. */
  private backfill(numRepeats: number): void {
    const marked = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM groups_done`).one().n;
    if (marked > 0) return;
    const tasks = this.sql
      .exec<{ task_index: number }>(`SELECT task_index FROM results GROUP BY task_index HAVING COUNT(*) >= ? ORDER BY task_index`, numRepeats)
      .toArray()
      .map((row) => row.task_index);
    this.markComplete(tasks, numRepeats);
  }

  /** The next groups after the cursor; the cursor moves past them (and past dropped ones) before the answer leaves. */
  take(take: GroupTake, job: { numRepeats: number; tasks: number; policyVersion?: number; status: JobStatus }): GroupPage {
    this.backfill(job.numRepeats);
    const position = this.sql.exec<{ sequence: number }>(`SELECT sequence FROM group_cursors WHERE name = ?`, take.cursor).toArray()[0]?.sequence ?? 0;
    const stale = take.minVersion !== undefined && (job.policyVersion ?? 0) < take.minVersion;
    const completed = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM groups_done`).one().n;
    const ready = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM groups_done WHERE sequence > ?`, position).one().n;
    const more = job.status === "running" && completed < job.tasks;
    if (!stale && more && ready < (take.atLeast ?? 1)) return this.page([], 0, ready, job.tasks - completed, job);
    const rows = this.sql
      .exec<{ sequence: number; task_index: number; completed_at: number }>(
        `SELECT sequence, task_index, completed_at FROM groups_done WHERE sequence > ? ORDER BY sequence LIMIT ?`,
        position,
        stale ? -1 : take.limit,
      )
      .toArray();
    const last = rows[rows.length - 1];
    if (last) {
      this.sql.exec(
        `INSERT INTO group_cursors (name, sequence) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET sequence = excluded.sequence`,
        take.cursor,
        last.sequence,
      );
    }
    const groups = stale ? [] : this.withLocations(rows);
    return this.page(groups, stale ? rows.length : 0, ready - rows.length, job.tasks - completed, job);
  }

  private page(groups: FeedGroup[], dropped: number, pending: number, incomplete: number, job: { policyVersion?: number; status: JobStatus }): GroupPage {
    return {
      groups,
      dropped,
      pending,
      incomplete: Math.max(0, incomplete),
      ...(job.policyVersion === undefined ? {} : { policy_version: job.policyVersion }),
      status: job.status,
    };
  }

  private withLocations(rows: { sequence: number; task_index: number; completed_at: number }[]): FeedGroup[] {
    if (rows.length === 0) return [];
    const locations = this.sql
      .exec<{ kind: string; object_key: string; offset: number; length: number; task_index: number; rollout_index: number }>(
        `SELECT kind, object_key, offset, length, task_index, rollout_index FROM results
         WHERE kind IN ('rollout', 'failure') AND task_index IN (SELECT value FROM json_each(?)) ORDER BY task_index, rollout_index`,
        JSON.stringify(rows.map((row) => row.task_index)),
      )
      .toArray();
    const byTask = new Map<number, Location[]>();
    for (const location of locations) {
      const list = byTask.get(location.task_index) ?? [];
      list.push({ ...location, kind: location.kind as ResultKind });
      byTask.set(location.task_index, list);
    }
    return rows.map((row) => ({
      task_index: row.task_index,
      sequence: row.sequence,
      completed_at: row.completed_at,
      locations: byTask.get(row.task_index) ?? [],
    }));
  }
}
