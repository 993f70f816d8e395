// Lists every shell command a Markdown file shows: each line of its sh/bash/console blocks, and inline code that is
// clearly a command to run (`npx …`, `npm run …`, `python3 …`), with `\` continuations joined and trailing comments cut.
import { readFileSync } from "node:fs";

export interface DocumentedCommand {
  /** The command as a user would type it: continuations joined, the trailing comment and a final `&` removed. */
  command: string;
  /** `README.md:123` — where it starts. */
  where: string;
  /** Started in the background (`… &`). */
  background: boolean;
  /** A fenced block or inline code in prose. */
  from: "block" | "inline";
}

const SHELL_LANGUAGES = new Set(["sh", "bash", "shell", "console", "zsh"]);
/** Inline code that starts so is a command a reader would run; other inline code names things. */
const INLINE_COMMAND = /^(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:npx|npm|python3|node|curl|openssl)\s/;

/** Cuts a trailing `# comment` that is not inside quotes (a `#` inside a word, like `a#b`, is not a comment). */
export function stripComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === "#" && (i === 0 || /\s/.test(line[i - 1] ?? ""))) {
      return line.slice(0, i).trimEnd();
    }
  }
  return line.trimEnd();
}

function normalise(raw: string): { command: string; background: boolean } {
  let command = raw.replace(/\s+/g, " ").trim();
  const background = /\s&$/.test(command);
  if (background) command = command.replace(/\s&$/, "");
  // A console transcript's prompt is not part of the command.
  command = command.replace(/^\$ /, "");
  return { command, background };
}

/** Commands of one fenced block's lines (first line's number given), continuations joined. */
function blockCommands(lines: string[], firstLine: number, file: string): DocumentedCommand[] {
  const found: DocumentedCommand[] = [];
  let pending = "";
  let start = firstLine;
  lines.forEach((text, index) => {
    const code = stripComment(text);
    if (!pending) start = firstLine + index;
    if (code.endsWith("\\")) {
      pending += `${code.slice(0, -1)} `;
      return;
    }
    const whole = pending + code;
    pending = "";
    if (!whole.trim()) return;
    found.push({ ...normalise(whole), where: `${file}:${start}`, from: "block" });
  });
  return found;
}

/** Every command of the Markdown file at `path`, named `file` in `where`. */
export function extractCommands(path: string, file: string): DocumentedCommand[] {
  const lines = readFileSync(path, "utf8").split("\n");
  const found: DocumentedCommand[] = [];
  let fence: { marker: string; shell: boolean; body: string[]; line: number } | undefined;
  lines.forEach((line, index) => {
    const opening = /^\s*(`{3,}|~{3,})\s*([\w-]*)/.exec(line);
    if (fence) {
      if (opening && line.trim().startsWith(fence.marker) && !opening[2]) {
        if (fence.shell) found.push(...blockCommands(fence.body, fence.line, file));
        fence = undefined;
      } else {
        fence.body.push(line);
      }
      return;
    }
    if (opening) {
      fence = { marker: opening[1] ?? "```", shell: SHELL_LANGUAGES.has((opening[2] ?? "").toLowerCase()), body: [], line: index + 2 };
      return;
    }
    for (const match of line.matchAll(/`([^`\n]+)`/g)) {
      const code = (match[1] ?? "").trim();
      if (INLINE_COMMAND.test(code)) found.push({ ...normalise(stripComment(code)), where: `${file}:${index + 1}`, from: "inline" });
    }
  });
  return found;
}
