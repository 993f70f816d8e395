// Python's str.format with keyword arguments and CPython's errors, as NeMo Gym fills judge prompt templates (inverse_if, multichallenge).
import { pyReprStr } from "./repr.js";

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

/** One replacement field as CPython's parse_field reads it: the name, the conversion character, the format spec. */
interface Field {
  name: string;
  conversion: string | null;
  spec: string;
  /** Where the template continues after the field's closing brace. */
  next: number;
}

/** parse_field (Objects/stringlib/unicode_format.h) from just after the field's `{`, with its ValueErrors. */
function parseField(template: string, start: number): Field {
  let i = start;
  let c = "";
  // The name runs to `}`, `:` or `!`; a `[` skips to its `]`, a `{` is an error.
  while (i < template.length) {
    c = template[i++]!;
    if (c === "{") throw new PyFormatError("ValueError", "unexpected '{' in field name");
    if (c === "[") {
      while (i < template.length && template[i] !== "]") i++;
      continue;
    }
    if (c === "}" || c === ":" || c === "!") break;
  }
  const name = template.slice(start, i - 1);
  if (c !== "!" && c !== ":") {
    if (c !== "}" || i > template.length) throw new PyFormatError("ValueError", "expected '}' before end of string");
    return { name, conversion: null, spec: "", next: i };
  }
  let conversion: string | null = null;
  if (c === "!") {
    if (i >= template.length) throw new PyFormatError("ValueError", "end of string while looking for conversion specifier");
    conversion = String.fromCodePoint(template.codePointAt(i)!);
    i += conversion.length;
    if (i < template.length) {
      c = template[i++]!;
      if (c === "}") return { name, conversion, spec: "", next: i };
      if (c !== ":") throw new PyFormatError("ValueError", "expected ':' after conversion specifier");
    }
  }
  // The spec runs to the `}` that balances the field's `{`; braces nest inside it.
  const specStart = i;
  let depth = 1;
  while (i < template.length) {
    c = template[i++]!;
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return { name, conversion, spec: template.slice(specStart, i - 1), next: i };
  }
  throw new PyFormatError("ValueError", "unmatched '{' in format spec");
}

function fill({ name, conversion, spec }: Field, values: Readonly<Record<string, string>>): string {
  const head = /^[^.[]*/.exec(name)![0];
  if (head === "" || /^[0-9]+$/.test(head)) throw new PyFormatError("IndexError", `Replacement index ${head || 0} out of range for positional args tuple`);
  if (!Object.hasOwn(values, head)) throw new PyFormatError("KeyError", pyReprStr(head));
  if (conversion !== null && !"rsa".includes(conversion)) {
    // CPython prints a printable ASCII conversion as itself, any other as \x and its hex code.
    const cp = conversion.codePointAt(0)!;
    const shown = cp > 32 && cp < 127 ? conversion : `\\x${cp.toString(16)}`;
    throw new PyFormatError("ValueError", `Unknown conversion specifier ${shown}`);
  }
  // `!s`, and an empty spec, change nothing for a str; anything else (!r, a spec, .attr, [index]) is not ported.
  if (head !== name || (conversion !== null && conversion !== "s") || spec !== "") {
    const field = `${name}${conversion === null ? "" : `!${conversion}`}${spec === "" ? "" : `:${spec}`}`;
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
      const field = parseField(template, i + 1);
      out += fill(field, values);
      i = field.next;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}
