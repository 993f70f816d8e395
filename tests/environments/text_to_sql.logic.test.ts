// text_to_sql's pure logic in Node: NeMo Gym's extraction and verify tests ported, the verdict parser and the result comparison.
import { describe, expect, it } from "vitest";
import type { Response, ResponsesCreateParams } from "../../protocol/index.js";
import { JudgeError } from "../../environments/sdk/index.js";
import { compareResults, ordersRows, type ResultSet } from "../../environments/text_to_sql/compare.js";
import { extractSqlFromResponse, judgeResponseText, normalizeDialect } from "../../environments/text_to_sql/extract.js";
import { DEFAULT_CONFIG, parseVerdict } from "../../environments/text_to_sql/judge.js";
import { TextToSqlTask, verifyTextToSql } from "../../environments/text_to_sql/verify.js";

describe("NeMo Gym's TestExtractSqlFromResponse, ported", () => {
  it("extracts from a ```sql block", () => {
    expect(extractSqlFromResponse("Here's the query:\n\n```sql\nSELECT * FROM users;\n```")).toBe("SELECT * FROM users;");
  });
  it("extracts from a ``` block", () => {
    expect(extractSqlFromResponse("Here's the query:\n\n```\nSELECT name FROM employees;\n```")).toBe("SELECT name FROM employees;");
  });
  it("extracts a raw SELECT", () => {
    expect(extractSqlFromResponse("The answer is SELECT id, name FROM products WHERE price > 100;")).toContain(
      "SELECT id, name FROM products WHERE price > 100",
    );
  });
  it("extracts raw SQL with a CTE", () => {
    expect(extractSqlFromResponse("Answer: WITH cte AS (SELECT * FROM t) SELECT * FROM cte;")).toContain("WITH cte");
  });
  it("finds nothing in prose", () => {
    expect(extractSqlFromResponse("I don't know how to write this query.")).toBeNull();
  });
  it("finds nothing in empty text", () => {
    expect(extractSqlFromResponse("")).toBeNull();
  });
  it("returns the last of several ```sql blocks", () => {
    expect(extractSqlFromResponse("First:\n```sql\nSELECT 1;\n```\n\nSecond:\n```sql\nSELECT 2;\n```")).toBe("SELECT 2;");
  });
  it("keeps a multiline query whole", () => {
    const text =
      "```sql\nSELECT\n    u.name,\n    COUNT(o.id) as order_count\nFROM users u\nLEFT JOIN orders o ON u.id = o.user_id\nGROUP BY u.id, u.name\nORDER BY order_count DESC;\n```";
    const result = extractSqlFromResponse(text)!;
    for (const part of ["SELECT", "LEFT JOIN", "GROUP BY"]) expect(result).toContain(part);
  });
  it("a semicolon inside a string literal does not cut raw SQL short", () => {
    const text =
      "WITH extracted AS (\n    SELECT\n        CASE\n            WHEN INSTR(status_log, ';') > 0\n            THEN SUBSTR(status_log, 1, INSTR(status_log, ';') - 1)\n            ELSE status_log\n        END AS clean_log\n    FROM sensor_reading\n)\nSELECT clean_log FROM extracted ORDER BY clean_log;";
    const result = extractSqlFromResponse(text)!;
    expect(result).toContain("WITH extracted");
    expect(result).toContain("INSTR(status_log, ';')");
    expect(result).toContain("ORDER BY clean_log;");
  });
  it("a semicolon inside a -- comment does not cut raw SQL short", () => {
    const text =
      "WITH current_semester AS (\n    SELECT semester_id,\n        occupied_seats -- convert to number;\n    FROM occupancy_log\n)\nSELECT building_id, AVG(occupied_seats) AS avg_occ\nFROM current_semester\nGROUP BY building_id\nORDER BY avg_occ DESC;";
    const result = extractSqlFromResponse(text)!;
    expect(result).toContain("WITH current_semester");
    expect(result).toContain("ORDER BY avg_occ DESC;");
  });
  it("a semicolon inside a /* */ comment does not cut raw SQL short", () => {
    const text =
      "WITH logs AS (\n    SELECT shift_id,\n        /* Parse reads from processed_reads; uses comma-delimited format */\n        processed_reads\n    FROM rfid_log\n)\nSELECT shift_id, COUNT(*) AS total\nFROM logs\nGROUP BY shift_id;";
    const result = extractSqlFromResponse(text)!;
    expect(result).toContain("WITH logs");
    expect(result).toContain("GROUP BY shift_id;");
  });
  it("raw SQL without a semicolon gets exactly one", () => {
    const result = extractSqlFromResponse("WITH t AS (SELECT 1 AS x) SELECT x FROM t")!;
    expect(result).toContain("WITH t");
    expect(result).toContain("SELECT x FROM t");
    expect(result.endsWith(";")).toBe(true);
  });
});

describe("extraction, new cases", () => {
  it("several trailing semicolons become one; a ``` block not starting with a statement is skipped", () => {
    expect(extractSqlFromResponse("SELECT 1;;; ")).toBe("SELECT 1;");
    expect(extractSqlFromResponse("```python\nprint(1)\n```\nthen SELECT 2")).toBe("SELECT 2;");
    expect(extractSqlFromResponse("```SQL\nselect 3\n```")).toBe("select 3");
  });
  it("a keyword glued to a word still starts raw SQL, as Python's pattern has no word boundary", () => {
    expect(extractSqlFromResponse("please deselect all")).toBe("select all;");
    expect(extractSqlFromResponse("deSELECT x")).toBe("SELECT x;");
  });
  it("dialect aliases", () => {
    expect(normalizeDialect(" Postgres ")).toBe("postgresql");
    expect(normalizeDialect("SQLite3")).toBe("sqlite");
    expect(normalizeDialect("")).toBeNull();
  });
});

const response = (text: string, role: "assistant" | "user" = "assistant"): Response => ({
  id: "test_response",
  object: "response",
  created_at: 1000,
  model: "test_model",
  output: [{ id: "msg_1", type: "message", role, status: "completed", content: [{ type: "output_text", text, annotations: [] }] }],
});

/** A stand-in judge answering each call with the next scripted text, recording what it was asked. */
function scriptedJudge(...texts: string[]) {
  const asked: ResponsesCreateParams[] = [];
  const judge = async (params: ResponsesCreateParams) => {
    asked.push(params);
    const text = texts.shift();
    if (text === undefined) throw new Error("the judge was asked more often than scripted");
    return response(text);
  };
  return { judge, asked };
}

const task = (modelOutput: string, overrides: Partial<TextToSqlTask> = {}) => ({
  ...TextToSqlTask.parse({
    sql: "SELECT * FROM users;",
    sql_dialect: "postgresql",
    sql_context: "CREATE TABLE users (id INT, name VARCHAR(100));",
    sql_prompt: "List all users",
    ...overrides,
  }),
  response: response(modelOutput),
});

describe("NeMo Gym's TestTextToSqlResourcesServerVerify, ported (a stand-in judge)", () => {
  it("no SQL extracted: reward 0, no_sql_extracted", async () => {
    const result = await verifyTextToSql(task("I don't know how to write SQL"), scriptedJudge());
    expect(result.reward).toBe(0);
    expect(result.failure_reason).toBe("no_sql_extracted");
    expect(result.extracted_sql).toBeNull();
  });
  it("the judge passes (check_twice_swap off): reward 1", async () => {
    const { judge } = scriptedJudge("[[A=B]]");
    const result = await verifyTextToSql(task("```sql\nSELECT * FROM users;\n```"), { judge, config: { ...DEFAULT_CONFIG, checkTwiceSwap: false } });
    expect(result).toMatchObject({ reward: 1, judge_passed: true, failure_reason: "none", extracted_sql: "SELECT * FROM users;" });
  });
  it("the judge fails: reward 0, judge_evaluation_failed", async () => {
    const result = await verifyTextToSql(task("```sql\nSELECT id FROM users;\n```"), scriptedJudge("[[A!=B]]"));
    expect(result).toMatchObject({ reward: 0, judge_passed: false, failure_reason: "judge_evaluation_failed" });
  });
  it("with the swap check: two evaluations, reward 1", async () => {
    const result = await verifyTextToSql(task("```sql\nSELECT * FROM users;\n```"), scriptedJudge("[[A=B]]", "[[A=B]]"));
    expect(result.reward).toBe(1);
    expect(result.judge_passed).toBe(true);
    expect(result.judge_evaluations).toHaveLength(2);
  });
  it("a row without sql is refused", () => {
    expect(TextToSqlTask.safeParse({ sql_dialect: "sqlite", sql_prompt: "q" }).success).toBe(false);
  });
  it("a row without sql_dialect is refused", () => {
    expect(TextToSqlTask.safeParse({ sql: "SELECT * FROM users;", sql_prompt: "q" }).success).toBe(false);
  });
  it("an empty sql_dialect is an error", async () => {
    await expect(verifyTextToSql(task("```sql\nSELECT * FROM users;\n```", { sql_dialect: "" }), scriptedJudge())).rejects.toThrow("SQL dialect is required");
  });
  it("an unsupported sql_dialect is an error", async () => {
    await expect(verifyTextToSql(task("```sql\nSELECT * FROM users;\n```", { sql_dialect: "oracle" }), scriptedJudge())).rejects.toThrow(
      "Unsupported SQL dialect 'oracle'. Supported: ['mysql', 'postgresql', 'sqlite']",
    );
  });
  it("an empty sql_context works", async () => {
    const { judge } = scriptedJudge("[[A=B]]");
    const result = await verifyTextToSql(task("```sql\nSELECT * FROM users;\n```", { sql_context: "" }), {
      judge,
      config: { ...DEFAULT_CONFIG, checkTwiceSwap: false },
    });
    expect(result.reward).toBe(1);
    expect(result.sql_context).toBe("");
  });
});

describe("verify, new cases", () => {
  it("the swap pass failing gives reward_if_swap_fails", async () => {
    const { judge } = scriptedJudge("[[A=B]]", "[[A!=B]]");
    const result = await verifyTextToSql(task("SELECT name FROM users"), { judge, config: { ...DEFAULT_CONFIG, rewardIfSwapFails: -1 } });
    expect(result).toMatchObject({ reward: -1, judge_passed: false, failure_reason: "judge_evaluation_failed" });
  });
  it("the swap pass puts the generated query first", async () => {
    const { judge, asked } = scriptedJudge("[[A=B]]", "[[A=B]]");
    await verifyTextToSql(task("SELECT name FROM users"), { judge });
    const user = (params: ResponsesCreateParams) => (params.input as { content: string }[])[1]!.content;
    expect(user(asked[0]!)).toMatch(/Query A\|>\nSELECT \* FROM users;\n<\|End of SQL Query A[\s\S]*Query B\|>\nSELECT name FROM users;\n/);
    expect(user(asked[1]!)).toMatch(/Query A\|>\nSELECT name FROM users;\n<\|End of SQL Query A[\s\S]*Query B\|>\nSELECT \* FROM users;\n/);
  });
  it("no model text at all: no_sql_extracted without asking the judge, the normalized dialect echoed", async () => {
    const { judge, asked } = scriptedJudge();
    const result = await verifyTextToSql({ ...task("x", { sql_dialect: "PG" }), response: { ...response("x"), output: [] } }, { judge });
    expect(result).toMatchObject({ reward: 0, model_output: "", failure_reason: "no_sql_extracted", sql_dialect: "postgresql", judge_evaluations: [] });
    expect(asked).toHaveLength(0);
  });
  it("a failed judge call propagates (the SDK's judge_failed); any other judge-side error is unknown_error", async () => {
    const failing = async () => {
      throw new JudgeError("the judge answered 503");
    };
    await expect(verifyTextToSql(task("SELECT 1"), { judge: failing })).rejects.toBeInstanceOf(JudgeError);
    const broken = async () => {
      throw new TypeError("boom");
    };
    expect(await verifyTextToSql(task("SELECT 1"), { judge: broken })).toMatchObject({ reward: 0, failure_reason: "unknown_error" });
  });
  it("non-SQLite rows are judged only; SQLite rows without a database report why", async () => {
    const pg = await verifyTextToSql(task("SELECT 1"), scriptedJudge("[[A!=B]]"));
    expect(pg.execution_match).toBeNull();
    expect(pg.execution.reason).toContain("postgresql queries are judged only");
    const lite = await verifyTextToSql(task("SELECT 1", { sql_dialect: "sqlite" }), scriptedJudge("[[A!=B]]"));
    expect(lite.execution.reason).toBe("not executed: no database");
  });
});

describe("verdict parsing", () => {
  it("the first label wins; none is not equal", () => {
    expect(parseVerdict("[[A=B]] ... or [[A!=B]]", DEFAULT_CONFIG)).toEqual({ equal: true, label: "[[A=B]]" });
    expect(parseVerdict("[[A!=B]], not [[A=B]]", DEFAULT_CONFIG)).toEqual({ equal: false, label: "[[A!=B]]" });
    expect(parseVerdict("they look the same", DEFAULT_CONFIG)).toEqual({ equal: false, label: null });
  });
  it("the judge's text joins its assistant messages and skips blank parts", () => {
    const r = response("  first  ");
    r.output.push({
      type: "message",
      role: "assistant",
      content: [
        { type: "output_text", text: " " },
        { type: "output_text", text: "[[A=B]]" },
      ],
    });
    r.output.push({ type: "message", role: "user", content: "[[A!=B]]" });
    expect(judgeResponseText(r)).toBe("first\n[[A=B]]");
  });
});

const result = (columns: string[], rows: ResultSet["rows"]): ResultSet => ({ columns, rows });

describe("result comparison", () => {
  it("column names and column order do not matter", () => {
    const a = result(
      ["name", "n"],
      [
        ["ann", 1],
        ["bob", 2],
      ],
    );
    expect(
      compareResults(
        a,
        result(
          ["cnt", "who"],
          [
            [1, "ann"],
            [2, "bob"],
          ],
        ),
        false,
      ).match,
    ).toBe(true);
  });
  it("row order matters only under a top-level ORDER BY", () => {
    const a = result(["x"], [[1], [2]]);
    const b = result(["x"], [[2], [1]]);
    expect(compareResults(a, b, false).match).toBe(true);
    expect(compareResults(a, b, true).match).toBe(false);
  });
  it("NULL equals NULL, not 0 or ''; 1 equals 1.0; '1' is not 1", () => {
    expect(compareResults(result(["x"], [[null]]), result(["x"], [[null]]), false).match).toBe(true);
    expect(compareResults(result(["x"], [[null]]), result(["x"], [[0]]), false).match).toBe(false);
    expect(compareResults(result(["x"], [[null]]), result(["x"], [[""]]), false).match).toBe(false);
    expect(compareResults(result(["x"], [[1]]), result(["x"], [[1.0]]), false).match).toBe(true);
    expect(compareResults(result(["x"], [[1]]), result(["x"], [["1"]]), false).match).toBe(false);
    expect(compareResults(result(["x"], [[0.1 + 0.2]]), result(["x"], [[0.3]]), false).match).toBe(true);
  });
  it("duplicates count; extra columns and rows do not match", () => {
    expect(compareResults(result(["x"], [[1], [1]]), result(["x"], [[1], [2]]), false).match).toBe(false);
    expect(compareResults(result(["x"], [[1]]), result(["x", "y"], [[1, 2]]), false).reason).toContain("columns");
    expect(compareResults(result(["x"], [[1]]), result(["x"], [[1], [1]]), false).reason).toContain("rows");
  });
  it("look-alike columns are paired so that whole rows match", () => {
    const a = result(
      ["a", "b"],
      [
        [1, 2],
        [2, 1],
      ],
    );
    expect(
      compareResults(
        a,
        result(
          ["b", "a"],
          [
            [1, 2],
            [2, 1],
          ],
        ),
        true,
      ).match,
    ).toBe(true);
    expect(
      compareResults(
        a,
        result(
          ["a", "b"],
          [
            [1, 1],
            [2, 2],
          ],
        ),
        false,
      ).match,
    ).toBe(false);
  });
  it("a top-level ORDER BY is told from one in a window, a subquery, a string or a comment", () => {
    expect(ordersRows("SELECT x FROM t ORDER BY x")).toBe(true);
    expect(ordersRows("SELECT ROW_NUMBER() OVER (ORDER BY x) FROM t")).toBe(false);
    expect(ordersRows("SELECT * FROM (SELECT x FROM t ORDER BY x) s")).toBe(false);
    expect(ordersRows("SELECT 'order by' FROM t -- order by x")).toBe(false);
    expect(ordersRows("WITH c AS (SELECT 1) SELECT * FROM c\nORDER\n BY 1")).toBe(true);
  });
});
