// Reading a model's answer as NeMo Gym's text_to_sql does: its output text, the SQL in it, and the dialect named by the row.
import type { Response } from "../../protocol/index.js";

const STATEMENT_START = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP)\s/i;
const RAW_SQL_START = /(?:SELECT|INSERT|UPDATE|DELETE|WITH)\s/i;

/** Python's str.strip(): JavaScript's trim() strips the same whitespace for any text a model writes. */
const strip = (text: string) => text.trim();

/** Python's str.rstrip(";"). */
function stripTrailingSemicolons(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === ";") end--;
  return text.slice(0, end);
}

/**
 * The SQL in a model's answer: the last ```sql block, else the last ``` block that starts with a statement keyword,
 * else raw SQL from the first statement keyword to the last semicolon, ending in exactly one ";". null if none.
 */
export function extractSqlFromResponse(text: string): string | null {
  if (!text) return null;

  const sqlBlocks = [...text.matchAll(/```sql\s*([\s\S]*?)\s*```/gi)];
  if (sqlBlocks.length > 0) return strip(sqlBlocks[sqlBlocks.length - 1]![1]!);

  const blocks = [...text.matchAll(/```\s*([\s\S]*?)\s*```/g)];
  for (const block of blocks.reverse()) {
    const content = strip(block[1]!);
    if (STATEMENT_START.test(content)) return content;
  }

  // Greedy to the last semicolon, so a ";" inside a string literal or a comment does not cut the query short.
  const start = RAW_SQL_START.exec(text);
  if (start) {
    const lastSemicolon = text.lastIndexOf(";");
    const extracted = lastSemicolon >= start.index ? strip(text.slice(start.index, lastSemicolon + 1)) : strip(text.slice(start.index));
    return `${stripTrailingSemicolons(extracted)};`;
  }
  return null;
}

/** The openai SDK's `Response.output_text`: every output_text part of every output message, joined. */
export function responseOutputText(response: Response): string {
  const texts: string[] = [];
  for (const item of response.output) {
    if (item.type !== "message") continue;
    if (typeof item.content === "string") {
      texts.push(item.content);
      continue;
    }
    for (const part of item.content) if (part.type === "output_text" && typeof part.text === "string") texts.push(part.text);
  }
  return texts.join("");
}

/** The judge's assistant text across its output messages, each part stripped, as NeMo Gym reads a verdict. */
export function judgeResponseText(response: Response): string {
  const texts: string[] = [];
  for (const item of response.output) {
    if (item.type !== "message" || (item.role !== undefined && item.role !== null && item.role !== "assistant")) continue;
    if (typeof item.content === "string") {
      if (strip(item.content)) texts.push(strip(item.content));
      continue;
    }
    const parts = item.content.map((part) => part.text).filter((t): t is string => typeof t === "string" && strip(t) !== "");
    if (parts.length > 0) texts.push(parts.map(strip).join("\n"));
  }
  return strip(texts.join("\n"));
}

export const SUPPORTED_DIALECTS = new Set(["mysql", "postgresql", "sqlite"]);

const DIALECT_ALIASES: Record<string, string> = { postgres: "postgresql", pg: "postgresql", sqlite3: "sqlite" };

/** The row's dialect, lowercased with its aliases resolved; null when it is empty. */
export function normalizeDialect(dialect: string | null | undefined): string | null {
  if (!dialect) return null;
  const normalized = strip(dialect).toLowerCase();
  return DIALECT_ALIASES[normalized] ?? normalized;
}
