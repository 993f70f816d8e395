// Python's str.format with keyword arguments and CPython's errors, as NeMo Gym fills judge prompt templates (inverse_if, multichallenge).

/** ValueError / KeyError / IndexError of str.format, with CPython's messages. */
export class PyFormatError extends Error {
  constructor(
    readonly pythonClass: "ValueError" | "KeyError" | "IndexError",
    message: string,
  ) {
    super(`${pythonClass}: ${message}`);
    this.name = "PyFormatError";
  }
}

/** The end of a replacement field starting after `{` at `start`: braces nest inside a format spec, as CPython counts them. */
function fieldEnd(template: string, start: number): number {
  let depth = 1;
  for (let i = start; i < template.length; i++) {
    if (template[i] === "{") depth++;
    else if (template[i] === "}" && --depth === 0) return i;
  }
  throw new PyFormatError("ValueError", "expected '}' before end of string");
}

function fill(field: string, values: Readonly<Record<string, string>>): string {
  const conversionAt = field.indexOf("!");
  const specAt = field.indexOf(":");
  const nameEnd = Math.min(...[conversionAt, specAt, field.length].filter((i) => i >= 0));
  const name = field.slice(0, nameEnd);
  const rest = field.slice(nameEnd);
  const head = /^[^.[]*/.exec(name)![0];
  if (head === "" || /^[0-9]+$/.test(head)) throw new PyFormatError("IndexError", `Replacement index ${head || 0} out of range for positional args tuple`);
  if (!Object.hasOwn(values, head)) throw new PyFormatError("KeyError", `'${head}'`);
  // `!s`, and an empty spec, change nothing for a str; anything else (!r, a spec, .attr, [index]) is not ported.
  if (head !== name || (rest !== "" && rest !== "!s" && rest !== ":" && rest !== "!s:")) {
    throw new Error(`the judge prompt template's field {${field}} uses str.format features this port does not implement`);
  }
  return values[head]!;
}

/** template.format(**values): `{name}` filled, `{{`/`}}` literal braces; CPython's errors for a lone brace or unknown name. */
export function pyFormatKeywords(template: string, values: Readonly<Record<string, string>>): string {
  let out = "";
  let i = 0;
  while (i < template.length) {
    const ch = template[i]!;
    if (ch === "}") {
      if (template[i + 1] !== "}") throw new PyFormatError("ValueError", "Single '}' encountered in format string");
      out += "}";
      i += 2;
    } else if (ch === "{") {
      if (template[i + 1] === "{") {
        out += "{";
        i += 2;
        continue;
      }
      if (i + 1 >= template.length) throw new PyFormatError("ValueError", "Single '{' encountered in format string");
      const end = fieldEnd(template, i + 1);
      out += fill(template.slice(i + 1, end), values);
      i = end + 1;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}
