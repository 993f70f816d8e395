// Port of NeMo Gym's text_to_sql: an LLM judge compares the model's SQL with the reference; SQLite rows are also executed.
import { defineEnvironment, z } from "../sdk/index.js";
import { executeAndCompare } from "./execute.js";
import { TextToSqlTask, verifyTextToSql } from "./verify.js";

export default defineEnvironment({
  name: "text_to_sql",
  description:
    "Text-to-SQL: the SQL in the model's answer is judged equivalent to the reference by an LLM judge (asked twice, A and B swapped); SQLite rows are also run on their schema and data and the results compared.",
  task: TextToSqlTask,
  // Declared so the environment is stateful: verify then runs in the session's Durable Object, next to its SQLite.
  state: z.object({}),
  tools: {},
  verify: (request, { judge, sql }) =>
    verifyTextToSql(request, {
      judge,
      execute: sql ? (context, reference, predicted) => executeAndCompare(sql, context, reference, predicted) : undefined,
    }),
});
