// NeMo Gym's text_to_sql verify: extract the SQL, ask the judge (twice, swapped), and add an execution check on SQLite.
import { EdgegymError, type Response } from "../../protocol/index.js";
import { JudgeError, z, type Judge } from "../sdk/index.js";
import type { ExecutionReport } from "./execute.js";
import { extractSqlFromResponse, normalizeDialect, responseOutputText, SUPPORTED_DIALECTS } from "./extract.js";
import { DEFAULT_CONFIG, judgeEquivalence, type JudgeEvaluation, type TextToSqlConfig } from "./judge.js";

/** The task fields of a text_to_sql row. */
export const TextToSqlTask = z.object({
  uuid: z.union([z.string(), z.number().int()]).nullish(),
  /** The reference query. */
  sql: z.string(),
  sql_dialect: z.string(),
  /** The schema and sample data: CREATE TABLE and INSERT statements. */
  sql_context: z.string().default(""),
  /** The question in natural language. */
  sql_prompt: z.string(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
export type TextToSqlTask = z.infer<typeof TextToSqlTask>;

export const FailureCode = {
  NONE: "none",
  NO_SQL_EXTRACTED: "no_sql_extracted",
  JUDGE_EVALUATION_FAILED: "judge_evaluation_failed",
  UNKNOWN_ERROR: "unknown_error",
} as const;
export type FailureCode = (typeof FailureCode)[keyof typeof FailureCode];

/** Runs the reference and the predicted query on the row's data; absent where there is no database (plain unit tests). */
export type Executor = (context: string, reference: string, predicted: string) => ExecutionReport;

export interface VerifyDependencies {
  judge: Judge;
  execute?: Executor;
  config?: TextToSqlConfig;
}

/** The dialect, normalized; NeMo Gym refuses a row without one or with one it does not know (a ValueError there). */
function dialectOf(task: TextToSqlTask): string {
  const dialect = normalizeDialect(task.sql_dialect);
  if (!dialect) throw new EdgegymError(400, "invalid_request", "SQL dialect is required but was not provided");
  if (!SUPPORTED_DIALECTS.has(dialect)) {
    const supported = [...SUPPORTED_DIALECTS]
      .sort()
      .map((d) => `'${d}'`)
      .join(", ");
    throw new EdgegymError(400, "invalid_request", `Unsupported SQL dialect '${dialect}'. Supported: [${supported}]`);
  }
  return dialect;
}

/** The execution check, which only SQLite rows get: the Durable Object's database is SQLite. */
function executionCheck(dialect: string, task: TextToSqlTask, extracted: string | null, execute: Executor | undefined): ExecutionReport {
  if (dialect !== "sqlite") return { match: null, reason: `not executed: ${dialect} queries are judged only (the session database is SQLite)` };
  if (!extracted) return { match: null, reason: "not executed: no SQL was extracted" };
  if (!execute) return { match: null, reason: "not executed: no database" };
  try {
    return execute(task.sql_context, task.sql, extracted);
  } catch (error) {
    return { match: null, reason: `not executed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Scores one rollout exactly as NeMo Gym does (the judge decides the reward); the execution check is reported beside it. */
export async function verifyTextToSql(task: TextToSqlTask & { response: Response }, deps: VerifyDependencies) {
  const config = deps.config ?? DEFAULT_CONFIG;
  const dialect = dialectOf(task);
  const generated = responseOutputText(task.response);
  const common = {
    uuid: task.uuid ?? null,
    sql: task.sql,
    sql_dialect: dialect,
    sql_context: task.sql_context,
    sql_prompt: task.sql_prompt,
    metadata: task.metadata ?? null,
  };

  if (!generated) {
    const execution = executionCheck(dialect, task, null, deps.execute);
    return {
      ...common,
      reward: 0.0,
      model_output: "",
      extracted_sql: null,
      judge_passed: false,
      failure_reason: FailureCode.NO_SQL_EXTRACTED as FailureCode,
      judge_evaluations: [] as JudgeEvaluation[],
      execution_match: execution.match,
      execution,
    };
  }

  let reward = 0.0;
  let failureReason: FailureCode | null = null;
  let judgePassed = false;
  let extracted: string | null = null;
  const evaluations: JudgeEvaluation[] = [];
  let execution: ExecutionReport = { match: null, reason: "not executed" };

  try {
    extracted = extractSqlFromResponse(generated);
    execution = executionCheck(dialect, task, extracted, deps.execute);
    if (!extracted) {
      failureReason = FailureCode.NO_SQL_EXTRACTED;
    } else {
      const question = { sql_prompt: task.sql_prompt, sql_context: task.sql_context, sql_dialect: dialect };
      const first = await judgeEquivalence(deps.judge, { ...question, first_answer: task.sql, second_answer: extracted }, config);
      evaluations.push(first.evaluation);
      if (!first.equal) {
        failureReason = FailureCode.JUDGE_EVALUATION_FAILED;
      } else if (!config.checkTwiceSwap) {
        [judgePassed, reward, failureReason] = [true, 1.0, FailureCode.NONE];
      } else {
        const second = await judgeEquivalence(deps.judge, { ...question, first_answer: extracted, second_answer: task.sql }, config);
        evaluations.push(second.evaluation);
        if (second.equal) [judgePassed, reward, failureReason] = [true, 1.0, FailureCode.NONE];
        else [reward, failureReason] = [config.rewardIfSwapFails, FailureCode.JUDGE_EVALUATION_FAILED];
      }
    }
  } catch (error) {
    // A failed judge call is the SDK's judge_failed row; anything else is scored 0 as NeMo Gym's unknown_error.
    if (error instanceof JudgeError) throw error;
    reward = 0.0;
    failureReason = FailureCode.UNKNOWN_ERROR;
  }

  return {
    ...common,
    reward,
    model_output: generated,
    extracted_sql: extracted,
    judge_passed: judgePassed,
    failure_reason: failureReason,
    judge_evaluations: evaluations,
    execution_match: execution.match,
    execution,
  };
}
