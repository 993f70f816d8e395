// str.format with keyword arguments only, as LLM-judge verifiers fill their prompt templates (NeMo Gym's judge prompts).

/** Python's str.format with keyword arguments only: `{name}` filled, `{{` and `}}` literal braces; an unknown name throws. */
export function pyFormat(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (whole, name: string | undefined) => {
    if (whole === "{{") return "{";
    if (whole === "}}") return "}";
    const value = values[name ?? ""];
    if (value === undefined) throw new Error(`the judge prompt template has an unknown placeholder ${whole}`);
    return value;
  });
}
