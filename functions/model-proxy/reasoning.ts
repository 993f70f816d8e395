// Reasoning as text: `<think>…</think>` spans, as NeMo Gym folds reasoning into and out of assistant content.

const THINK = /<think>([\s\S]*?)<\/think>/g;

/** The reasoning spans of a text and the text without them. */
export function splitThink(text: string): { reasoning: string[]; rest: string } {
  if (!text.includes("<think>")) return { reasoning: [], rest: text };
  const reasoning: string[] = [];
  const rest = text.replace(THINK, (_span, inner: string) => {
    reasoning.push(inner);
    return "";
  });
  return { reasoning, rest };
}

export function wrapThink(texts: readonly string[]): string {
  return texts
    .filter((text) => text)
    .map((text) => `<think>${text}</think>`)
    .join("");
}
