// Fallbacks: call the most relevant unknown tool once with schema-filled arguments, or answer in text.
import { describeOutput, toolProperties, type Conversation, type ToolInfo } from "../conversation.js";
import { isRecord, names, numbers, quoted, snippet, withoutQuoted, words } from "../text.js";
import { outputOf, type Plan, type PlannedCall } from "./types.js";

/** Values found in the user's text, handed out in order as parameters ask for them. */
class Pool {
  private numberIndex = 0;
  private stringIndex = 0;
  private readonly numbers: number[];
  private readonly strings: string[];

  constructor(text: string) {
    // Quoted text is handed out whole as a string, so its digits are not numbers too.
    this.numbers = numbers(withoutQuoted(text));
    this.strings = [...quoted(text), ...names(withoutQuoted(text))];
    if (this.strings.length === 0 && text.trim().length > 0) this.strings.push(snippet(text, 8));
  }

  nextNumber(): number | undefined {
    return this.numbers[this.numberIndex++];
  }

  nextString(): string | undefined {
    return this.strings[this.stringIndex++];
  }
}

/** A minimal valid value for a JSON Schema, preferring what the user wrote. */
function fill(schema: Record<string, unknown>, pool: Pool): unknown {
  if (schema["default"] !== undefined) return schema["default"];
  const choices = schema["enum"];
  if (Array.isArray(choices) && choices.length > 0) return choices[0];
  if (schema["const"] !== undefined) return schema["const"];
  const alternatives = schema["anyOf"] ?? schema["oneOf"];
  if (Array.isArray(alternatives) && isRecord(alternatives[0])) return fill(alternatives[0], pool);
  const type = Array.isArray(schema["type"]) ? schema["type"][0] : schema["type"];
  switch (type) {
    case "integer":
      return Math.round(pool.nextNumber() ?? 1);
    case "number":
      return pool.nextNumber() ?? 1;
    case "boolean":
      return true;
    case "array": {
      // Minimal, but still valid when the schema demands items.
      const count = typeof schema["minItems"] === "number" ? schema["minItems"] : 0;
      const items = isRecord(schema["items"]) ? schema["items"] : {};
      return Array.from({ length: count }, () => fill(items, pool));
    }
    case "object":
      return fillObject(schema, pool);
    case "null":
      return null;
    default:
      return pool.nextString() ?? "example";
  }
}

function fillObject(schema: Record<string, unknown>, pool: Pool): Record<string, unknown> {
  const { properties, required } = toolProperties({ name: "", description: "", parameters: schema });
  const filled: Record<string, unknown> = {};
  for (const name of required) filled[name] = fill(properties[name] ?? {}, pool);
  return filled;
}

/**
 * Tools ranked by how many distinct words of their name the user used; ties keep the declared
 * order. Quoted text is left out: it is content to pass along ("reply with 'I will get back…'"),
 * not a description of the action.
 */
function mostRelevant(tools: ToolInfo[], user: string): ToolInfo | undefined {
  const said = new Set(words(withoutQuoted(user)).map((w) => w.replace(/'s$|s$/, "")));
  let best: ToolInfo | undefined;
  let bestScore = -1;
  for (const tool of tools) {
    const parts = new Set(tool.name.split(/[_\-\s]+|(?<=[a-z])(?=[A-Z])/).map((p) => p.toLowerCase().replace(/s$/, "")));
    const score = [...parts].filter((p) => p.length > 2 && said.has(p)).length;
    if (score > bestScore) {
      best = tool;
      bestScore = score;
    }
  }
  return best;
}

export function planGeneric(conversation: Conversation): Plan | null {
  const tool = mostRelevant(conversation.tools, conversation.user);
  if (!tool) return null;
  const call: PlannedCall = { name: tool.name, arguments: fillObject(tool.parameters, new Pool(conversation.user)) };
  return {
    batches: [[call]],
    answer: (c) => `Here is what I found: ${describeOutput(outputOf(c, call))}`,
  };
}

// Multiple-choice options written as "A: …", "A) …", "(A) …" or "A. …".
function choiceLetters(text: string): string[] {
  const letters = new Set<string>();
  for (const match of text.matchAll(/(?:^|[\s(])([A-J])(?:[:.)]|\))\s/gm)) letters.add(match[1]!);
  return [...letters].sort();
}

/** A plausible thing to put in \boxed{}: a choice letter, a name, a number, or a word. */
function guess(user: string, letters: string[]): string {
  if (letters.length >= 2) return letters[0]!;
  const found = names(user).filter((n) => n.length > 1);
  if (found.length > 0) return found[found.length - 1]!;
  const values = numbers(user);
  if (values.length > 0) return String(values[values.length - 1]);
  return words(user).find((w) => w.length > 3) ?? "42";
}

/** The no-tools answer: echoes the user's words, in the answer format the prompt asks for. */
export function textAnswer(conversation: Conversation): string {
  const { user, system } = conversation;
  const prompt = `${system}\n${user}`;
  const intro = user.trim().length > 0 ? `You asked: "${snippet(user)}".` : "Hello! How can I help you today?";
  const letters = choiceLetters(user);
  // A game that reads its moves from action tags (grl_tetris, blackjack): play the first move the instructions name.
  const action = /<action>([^<]{1,40})<\/action>/.exec(prompt)?.[1];
  if (action !== undefined) return `${intro} <action>${action}</action>`;
  if (/\\boxed/.test(prompt)) return `${intro} My answer is \\boxed{${guess(user, letters)}}.`;
  if (letters.length >= 2 || /\banswer:\s*\$?letter\b|\bletter\b.*\b(answer|choice|option)\b/i.test(prompt)) {
    return `${intro}\n\nAnswer: ${letters[0] ?? "A"}`;
  }
  return `${intro} Here is a short answer based on what you wrote.`;
}
