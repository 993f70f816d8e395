// text_to_sql in workerd: parity with NeMo Gym's recorded rollouts (the judge scripted from the record), the execution check in the session's SQLite.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { SQL_JUDGE_SYSTEM_MESSAGE } from "../../environments/text_to_sql/prompts.js";
import { fixtureRollouts, fixtureRows } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: ["text_to_sql"] });
});
afterAll(async () => {
  await local?.stop();
});
beforeEach(() => local.simulator!.reset());

/** A verify in `session`, or (without one) in a new session, whose id the answer's x-session-id header carries. */
const verify = (body: unknown, session?: string) =>
  postJson(`${local.url}/v1/environments/text_to_sql/verify`, body, session ? { "x-session-id": session } : {});

type Evaluation = {
  responses_create_params: { input: { role: string; content: string }[] };
  response: { output: { content: { text: string }[] }[] };
  verdict_label: string | null;
};
const judgeText = (evaluation: Evaluation) => evaluation.response.output.map((o) => o.content.map((c) => c.text).join("\n")).join("\n");

/** The fields NeMo Gym's verifier writes (the rest of a record is the request it echoes). */
const VERDICT_FIELDS = [
  "reward",
  "uuid",
  "sql",
  "model_output",
  "extracted_sql",
  "sql_dialect",
  "sql_context",
  "sql_prompt",
  "judge_passed",
  "failure_reason",
  "metadata",
];

describe("parity with NeMo Gym's recorded rollouts", () => {
  const records = fixtureRollouts("text_to_sql");
  it.each(records.map((record) => [record.uuid as string, record] as const))("%s: same reward and fields, same judge prompts", async (_uuid, record) => {
    const evaluations = record.judge_evaluations as Evaluation[];
    // The judge answers as it did in the record.
    local.simulator!.script(...evaluations.map((evaluation) => ({ content: judgeText(evaluation) })));
    const { reward: _reward, judge_evaluations: _e, judge_passed: _p, failure_reason: _f, extracted_sql: _x, model_output: _m, ...request } = record;

    const answer = await verify(request);
    expect(answer.status).toBe(200);
    for (const field of VERDICT_FIELDS) expect(answer.body[field], field).toEqual(record[field]);
    const ours = answer.body.judge_evaluations as Evaluation[];
    expect(ours.map((e) => e.verdict_label)).toEqual(evaluations.map((e) => e.verdict_label));
    expect(ours.map(judgeText)).toEqual(evaluations.map(judgeText));

    // The judge saw NeMo Gym's prompt: the recorded user message exactly (A and B swapped on the second pass), and
    // the system message of prompts.py at the pinned commit. The record was made with the message's earlier revision.
    const requests = local.simulator!.requests;
    expect(requests).toHaveLength(evaluations.length);
    evaluations.forEach((evaluation, i) => {
      const [recordedSystem, recordedUser] = evaluation.responses_create_params.input;
      expect(requests[i]!.messages).toEqual([
        { role: "system", content: SQL_JUDGE_SYSTEM_MESSAGE },
        { role: "user", content: recordedUser!.content },
      ]);
      expect(ours[i]!.responses_create_params.input.map((m) => m.content)).toEqual([SQL_JUDGE_SYSTEM_MESSAGE, recordedUser!.content]);
      expect(recordedSystem!.content.split(".")[0]).toBe(SQL_JUDGE_SYSTEM_MESSAGE.split(".")[0]);
    });

    // Only the SQLite row is executed: the recorded prediction (grouping by employee_id alone) returns the reference's rows.
    if (record.sql_dialect === "sqlite") {
      expect(answer.body.execution_match).toBe(true);
      expect(answer.body.execution.reference).toEqual({ columns: ["full_name", "department", "project_count"], row_count: 2 });
    } else {
      expect(answer.body.execution_match).toBeNull();
    }
  });
});

const HR = fixtureRows("text_to_sql").find((row) => row.sql_dialect === "sqlite")!;
const modelSays = (text: string) => ({
  id: "resp_test",
  object: "response",
  created_at: 1000,
  model: "test_model",
  output: [{ id: "msg_1", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }],
});
const sqliteRow = (sql: string, context = HR.sql_context as string) => ({ ...HR, sql, sql_context: context });
const equal = () => local.simulator!.script({ content: "[[A=B]]" }, { content: "[[A=B]]" });

describe("NeMo Gym's verify tests, through the Worker", () => {
  const row = {
    responses_create_params: { input: [{ role: "user", content: "List all users" }] },
    sql: "SELECT * FROM users;",
    sql_dialect: "postgresql",
    sql_context: "CREATE TABLE users (id INT, name VARCHAR(100));",
    sql_prompt: "List all users",
  };

  it("no SQL extracted: reward 0 and no judge call", async () => {
    const answer = await verify({ ...row, response: modelSays("I don't know how to write SQL") });
    expect(answer.body).toMatchObject({ reward: 0, failure_reason: "no_sql_extracted", extracted_sql: null });
    expect(local.simulator!.requests).toHaveLength(0);
  });
  it("the judge fails: reward 0", async () => {
    local.simulator!.script({ content: "[[A!=B]]" });
    const answer = await verify({ ...row, response: modelSays("```sql\nSELECT id FROM users;\n```") });
    expect(answer.body).toMatchObject({ reward: 0, judge_passed: false, failure_reason: "judge_evaluation_failed" });
  });
  it("with the swap check: two evaluations, reward 1", async () => {
    equal();
    const answer = await verify({ ...row, response: modelSays("```sql\nSELECT * FROM users;\n```") });
    expect(answer.body).toMatchObject({ reward: 1, judge_passed: true, failure_reason: "none", extracted_sql: "SELECT * FROM users;" });
    expect(answer.body.judge_evaluations).toHaveLength(2);
  });
  it("missing sql or sql_dialect: a 400 naming the field", async () => {
    const { sql: _s, ...noSql } = row;
    expect((await verify({ ...noSql, response: modelSays("SELECT 1") })).body.error.issues[0].path).toEqual(["sql"]);
    const { sql_dialect: _d, ...noDialect } = row;
    expect((await verify({ ...noDialect, response: modelSays("SELECT 1") })).body.error.issues[0].path).toEqual(["sql_dialect"]);
  });
  it("an empty or unsupported dialect is refused", async () => {
    const empty = await verify({ ...row, sql_dialect: "", response: modelSays("SELECT 1") });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toContain("SQL dialect is required");
    const oracle = await verify({ ...row, sql_dialect: "oracle", response: modelSays("SELECT 1") });
    expect(oracle.body.error.message).toContain("Unsupported SQL dialect 'oracle'");
  });
  it("an empty sql_context works", async () => {
    equal();
    const answer = await verify({ ...row, sql_context: "", response: modelSays("```sql\nSELECT * FROM users;\n```") });
    expect(answer.body.reward).toBe(1);
    expect(answer.body.sql_context).toBe("");
  });
});

describe("the execution check on SQLite rows (reported beside the judge's reward)", () => {
  const REFERENCE = HR.sql as string;
  it("different column order and aliases still match", async () => {
    equal();
    const predicted =
      "SELECT COUNT(DISTINCT pa.project_id) AS n, e.department AS dept, e.first_name || ' ' || e.last_name AS who FROM employees e JOIN project_assignments pa ON pa.employee_id = e.employee_id GROUP BY e.employee_id HAVING n > 1";
    const answer = await verify({ ...sqliteRow(REFERENCE), response: modelSays(predicted) });
    expect(answer.body).toMatchObject({ reward: 1, execution_match: true });
  });
  it("row order matters only when the reference has an ORDER BY", async () => {
    const asc = "SELECT first_name FROM employees ORDER BY first_name";
    const desc = "SELECT first_name FROM employees ORDER BY first_name DESC";
    local.simulator!.script({ content: "[[A!=B]]" }, { content: "[[A!=B]]" });
    expect((await verify({ ...sqliteRow(asc), response: modelSays(desc) })).body.execution_match).toBe(false);
    expect((await verify({ ...sqliteRow("SELECT first_name FROM employees"), response: modelSays(desc) })).body.execution_match).toBe(true);
  });
  it("NULLs compare equal to NULL only", async () => {
    local.simulator!.script({ content: "[[A!=B]]" }, { content: "[[A!=B]]" });
    const reference = "SELECT project_name, end_date FROM projects";
    expect((await verify({ ...sqliteRow(reference), response: modelSays("SELECT project_name, end_date FROM projects WHERE 1") })).body.execution_match).toBe(
      true,
    );
    const coalesced = await verify({ ...sqliteRow(reference), response: modelSays("SELECT project_name, COALESCE(end_date, '') FROM projects") });
    expect(coalesced.body.execution_match).toBe(false);
  });
  it("invalid SQL: no match, the SQLite error reported, the reward still the judge's", async () => {
    local.simulator!.script({ content: "[[A!=B]]" });
    const answer = await verify({ ...sqliteRow(REFERENCE), response: modelSays("SELECT nope FROM nowhere;") });
    expect(answer.body).toMatchObject({ reward: 0, execution_match: false });
    expect(answer.body.execution.predicted.error).toContain("no such table: nowhere");
  });
  it("a reference that fails, or data that does not load, leaves the check undecided", async () => {
    local.simulator!.script({ content: "[[A!=B]]" }, { content: "[[A!=B]]" });
    expect((await verify({ ...sqliteRow("SELECT * FROM missing"), response: modelSays("SELECT 1") })).body.execution_match).toBeNull();
    const broken = await verify({ ...sqliteRow("SELECT 1", "CREATE TABLE t (;"), response: modelSays("SELECT 1") });
    expect(broken.body.execution_match).toBeNull();
    expect(broken.body.execution.reason).toContain("do not load");
  });
  it("foreign keys go unenforced, as in a stock SQLite", async () => {
    equal();
    const context = "CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE c (pid INTEGER REFERENCES p(id)); INSERT INTO c VALUES (5);";
    expect((await verify({ ...sqliteRow("SELECT pid FROM c", context), response: modelSays("SELECT * FROM c") })).body.execution_match).toBe(true);
  });
  it("a DROP TABLE in one session corrupts neither another session nor the next verify of its own", async () => {
    local.simulator!.script({ content: "[[A!=B]]" }, { content: "[[A=B]]" }, { content: "[[A=B]]" }, { content: "[[A=B]]" }, { content: "[[A=B]]" });
    const dropped = await verify({ ...sqliteRow(REFERENCE), response: modelSays("```sql\nDROP TABLE employees; DROP TABLE project_assignments;\n```") });
    const attacker = dropped.headers.get("x-session-id")!;
    expect(dropped.body.execution_match).toBe(false);
    const [other, again] = await Promise.all([
      verify({ ...sqliteRow(REFERENCE), response: modelSays(REFERENCE) }),
      verify({ ...sqliteRow(REFERENCE), response: modelSays(REFERENCE) }, attacker),
    ]);
    expect(other.body.execution_match).toBe(true);
    expect(again.body.execution_match).toBe(true);
  });
  it("a temporary table (which would shadow the next verify's tables) is refused", async () => {
    local.simulator!.script({ content: "[[A!=B]]" }, { content: "[[A=B]]" }, { content: "[[A=B]]" });
    const temp = await verify({ ...sqliteRow(REFERENCE), response: modelSays("```sql\nCREATE TEMP TABLE employees (x); SELECT 1;\n```") });
    const session = temp.headers.get("x-session-id")!;
    expect(temp.body.execution_match).toBe(false);
    expect(temp.body.execution.predicted.error).toContain("not authorized");
    expect((await verify({ ...sqliteRow(REFERENCE), response: modelSays(REFERENCE) }, session)).body.execution_match).toBe(true);
  });
  it("SQL reaching for the Durable Object's own _cf_ tables is refused by its SQLite, and the session goes on", async () => {
    local.simulator!.script({ content: "[[A!=B]]" }, { content: "[[A=B]]" }, { content: "[[A=B]]" });
    const answer = await verify({ ...sqliteRow(REFERENCE), response: modelSays("```sql\nCREATE TABLE _cf_KV (key TEXT); SELECT 1;\n```") });
    const session = answer.headers.get("x-session-id")!;
    expect(answer.body.execution_match).toBe(false);
    expect(answer.body.execution.predicted.error).toContain("not authorized");
    expect((await verify({ ...sqliteRow(REFERENCE), response: modelSays(REFERENCE) }, session)).body.execution_match).toBe(true);
  });
});

describe("the judge failing", () => {
  it("a judge that keeps answering 503 makes the row judge_failed, reward 0", async () => {
    local.simulator!.script(
      { status: 503, error: "overloaded" },
      { status: 503, error: "overloaded" },
      { status: 503, error: "overloaded" },
      { status: 503, error: "overloaded" },
    );
    const answer = await verify({ ...sqliteRow(HR.sql as string), response: modelSays("SELECT 1") });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ reward: 0, _ng_failure_class: "judge_failed" });
  });
});
