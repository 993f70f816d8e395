// The Job object's SQLite tables: its metadata, and one row per finished rollout (where its line is, its summary).
import { countedClass, emptyFailureCounts, type FailureCounts } from "../../contracts/failures.js";
import type { LocationPage, ResultEntry, ResultKind } from "../../contracts/jobs.js";

const PAGE = 1000;

export class JobTables {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS results (
      rollout_id TEXT PRIMARY KEY, kind TEXT NOT NULL, task_index INTEGER NOT NULL, rollout_index INTEGER NOT NULL,
      environment TEXT NOT NULL, object_key TEXT NOT NULL, offset INTEGER NOT NULL, length INTEGER NOT NULL, summary TEXT NOT NULL)`);
    // Reads in task-then-repeat order, per kind and per environment, walk this index instead of sorting the table.
    sql.exec(`CREATE INDEX IF NOT EXISTS results_order ON results (kind, task_index, rollout_index)`);
    sql.exec(`CREATE INDEX IF NOT EXISTS results_by_environment ON results (kind, environment, task_index, rollout_index)`);
  }

  meta<T>(): T | null {
    const row = this.sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = 'job'`).toArray()[0];
    return row ? (JSON.parse(row.value) as T) : null;
  }

  saveMeta(meta: unknown): void {
    this.sql.exec(`INSERT INTO meta (key, value) VALUES ('job', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, JSON.stringify(meta));
  }

  /** A full count, for a resume (which forgets failures) or a job written before counters were kept. */
  counted(): { done: number; failed: number } {
    const rows = this.sql.exec<{ kind: string; n: number }>(`SELECT kind, COUNT(*) AS n FROM results GROUP BY kind`).toArray();
    return { done: rows.find((r) => r.kind === "rollout")?.n ?? 0, failed: rows.find((r) => r.kind === "failure")?.n ?? 0 };
  }

  /** Which of these rollout ids already have a result. */
  known(ids: string[]): Set<string> {
    const rows = this.sql.exec<{ rollout_id: string }>(
      `SELECT rollout_id FROM results WHERE rollout_id IN (SELECT value FROM json_each(?))`,
      JSON.stringify(ids),
    );
    return new Set(rows.toArray().map((r) => r.rollout_id));
  }

  insert(objectKey: string, placed: { entry: ResultEntry; offset: number; length: number }[]): void {
    for (const { entry, offset, length } of placed) {
      this.sql.exec(
        `INSERT INTO results (rollout_id, kind, task_index, rollout_index, environment, object_key, offset, length, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        entry.rollout_id,
        entry.kind,
        entry.task_index,
        entry.rollout_index,
        entry.environment,
        objectKey,
        offset,
        length,
        JSON.stringify(entry.summary),
      );
    }
  }

  /** Failures by class (a failure's summary holds its class; an older one its detailed code, or nothing: exhausted_attempts). */
  failureClasses(): FailureCounts {
    const counts = emptyFailureCounts();
    const rows = this.sql
      .exec<{ c: string | null; n: number }>(
        `SELECT json_extract(summary, '$.failure_class') AS c, COUNT(*) AS n FROM results WHERE kind = 'failure' GROUP BY c`,
      )
      .toArray();
    for (const { c, n } of rows) counts[countedClass(c)] += n;
    return counts;
  }

  forgetFailures(): void {
    this.sql.exec(`DELETE FROM results WHERE kind = 'failure'`);
  }

  /** The ids with a result (of one kind, if given). */
  rolloutIds(kind?: ResultKind): Set<string> {
    const rows = kind
      ? this.sql.exec<{ rollout_id: string }>(`SELECT rollout_id FROM results WHERE kind = ?`, kind)
      : this.sql.exec<{ rollout_id: string }>(`SELECT rollout_id FROM results`);
    return new Set(rows.toArray().map((r) => r.rollout_id));
  }

  /** The environments with scored rollouts. */
  environments(): string[] {
    return this.sql
      .exec<{ environment: string }>(`SELECT DISTINCT environment FROM results WHERE kind = 'rollout' ORDER BY environment`)
      .toArray()
      .map((r) => r.environment);
  }

  /** One page of an environment's summaries after a (task, repeat) position, in order. */
  summaries(environment: string, after: [number, number] | null): { summaries: string[]; last: [number, number] | null } {
    const [task, repeat] = after ?? [-1, -1];
    const rows = this.sql
      .exec<{ summary: string; task_index: number; rollout_index: number }>(
        `SELECT summary, task_index, rollout_index FROM results WHERE kind = 'rollout' AND environment = ?
         AND (task_index > ? OR (task_index = ? AND rollout_index > ?)) ORDER BY task_index, rollout_index LIMIT ?`,
        environment,
        task,
        task,
        repeat,
        PAGE,
      )
      .toArray();
    const last = rows[rows.length - 1];
    return { summaries: rows.map((r) => r.summary), last: last ? [last.task_index, last.rollout_index] : null };
  }

  locations(kind: ResultKind, after: [number, number] | null, limit: number): LocationPage {
    const [task, repeat] = after ?? [-1, -1];
    const rows = this.sql
      .exec<{ object_key: string; offset: number; length: number; task_index: number; rollout_index: number }>(
        `SELECT object_key, offset, length, task_index, rollout_index FROM results WHERE kind = ?
         AND (task_index > ? OR (task_index = ? AND rollout_index > ?)) ORDER BY task_index, rollout_index LIMIT ?`,
        kind,
        task,
        task,
        repeat,
        limit,
      )
      .toArray()
      .map((row) => ({ ...row }));
    const last = rows[rows.length - 1];
    return { locations: rows, ...(rows.length === limit && last ? { next: [last.task_index, last.rollout_index] as [number, number] } : {}) };
  }
}
