// NeMo Gym's prompt_config: a YAML file with `user` (required) and `system` templates whose {field} placeholders come from the row.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";

export const PromptConfig = z.object({ user: z.string(), system: z.string().nullish() });
export type PromptConfig = z.infer<typeof PromptConfig>;

/** A template cut into literal text and `{field}` / `{field[key]}` placeholders, as Python's str.format reads it. */
type Piece = { text: string } | { field: string; keys: string[] };

export interface LoadedPromptConfig {
  file: string;
  user: Piece[];
  system?: Piece[];
}

/** Cuts a template; `{{` and `}}` are literal braces, a lone brace is an error (as Python's format says). */
export function compileTemplate(template: string, what: string): Piece[] {
  const pieces: Piece[] = [];
  let text = "";
  for (let i = 0; i < template.length; i++) {
    const ch = template[i];
    if ((ch === "{" || ch === "}") && template[i + 1] === ch) {
      text += ch;
      i++;
    } else if (ch === "}") {
      throw new Error(`${what}: single '}' encountered in the template (write '}}' for a literal brace)`);
    } else if (ch === "{") {
      const end = template.indexOf("}", i);
      if (end < 0) throw new Error(`${what}: single '{' encountered in the template (write '{{' for a literal brace)`);
      const spec = template.slice(i + 1, end);
      const match = /^([A-Za-z_][A-Za-z0-9_]*)((?:\[[^\]]+\])*)$/.exec(spec);
      if (!match) throw new Error(`${what}: placeholder {${spec}} is not {field} or {field[key]}`);
      if (text) pieces.push({ text });
      text = "";
      pieces.push({ field: match[1]!, keys: [...(match[2] ?? "").matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]!) });
      i = end;
    } else {
      text += ch;
    }
  }
  if (text) pieces.push({ text });
  return pieces;
}

export function loadPromptConfig(file: string): LoadedPromptConfig {
  let value: unknown;
  try {
    value = parseYaml(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`cannot read the prompt config ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = PromptConfig.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue?.path.join(".") || "(top)"}: ${issue?.message} (a prompt config has \`user\` and optionally \`system\`)`);
  }
  return {
    file: path.resolve(file),
    user: compileTemplate(parsed.data.user, `${file}: user`),
    ...(parsed.data.system != null ? { system: compileTemplate(parsed.data.system, `${file}: system`) } : {}),
  };
}

/** A value as Python's str() prints the common cases (a dict or list prints as JSON here, not as Python's repr). */
function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export class MissingField extends Error {
  constructor(readonly field: string) {
    super(`the prompt template's {${field}} has no value in this row`);
  }
}

function fill(pieces: Piece[], row: Record<string, unknown>): string {
  return pieces
    .map((piece) => {
      if ("text" in piece) return piece.text;
      if (!(piece.field in row)) throw new MissingField(piece.field);
      let value: unknown = row[piece.field];
      for (const key of piece.keys) {
        const container = value as Record<string, unknown> | unknown[] | null;
        const index = Array.isArray(container) && /^\d+$/.test(key) ? Number(key) : key;
        if (container === null || typeof container !== "object" || !(index in container)) throw new MissingField(`${piece.field}[${key}]`);
        value = (container as Record<string | number, unknown>)[index];
      }
      return asText(value);
    })
    .join("");
}

export type TemplateVerdict = { row: Record<string, unknown> } | { problem: { field: string; message: string } };

/**
 * The row with responses_create_params.input built from the template (its other params kept).
 * A row that has its own input is refused: NeMo Gym holds the two mutually exclusive.
 */
export function applyPromptConfig(config: LoadedPromptConfig, row: Record<string, unknown>): TemplateVerdict {
  const params = row.responses_create_params;
  const own = params && typeof params === "object" && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
  if (own.input) {
    return {
      problem: { field: "responses_create_params.input", message: "the row has its own input and a prompt config was given (they are mutually exclusive)" },
    };
  }
  try {
    const input = [...(config.system ? [{ role: "system", content: fill(config.system, row) }] : []), { role: "user", content: fill(config.user, row) }];
    return { row: { ...row, responses_create_params: { ...own, input } } };
  } catch (error) {
    if (!(error instanceof MissingField)) throw error;
    const fields = Object.keys(row).filter((key) => key !== "responses_create_params");
    return { problem: { field: error.field, message: `${error.message} (the row's fields: ${fields.join(", ") || "none"})` } };
  }
}
