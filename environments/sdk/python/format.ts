// str.format with keyword arguments under the name the judge environments import: the SDK's one str.format (format-keywords.ts).
import { pyFormatKeywords } from "./format-keywords.js";

/** template.format(**values): `{name}` filled, `{{`/`}}` literal braces, CPython's errors otherwise (PyFormatError). */
export const pyFormat: (template: string, values: Readonly<Record<string, string>>) => string = pyFormatKeywords;
