// list(csv.DictReader(io.StringIO(text))) with csv-parse: the excel dialect, non-strict, and DictReader's rest keys.
import { CsvError, type InfoField, parse } from "csv-parse/browser/esm/sync";
import { PyError, type PyDict, type PyValue } from "../python/value.js";

const FIELD_LIMIT = 131072;

interface Field {
  value: string;
  quoted: boolean;
}

const OPTIONS = {
  relax_quotes: true,
  relax_column_count: true,
  skip_empty_lines: true,
  // Python ends a record at "\n" or "\r\n"; a lone "\r" is checked below.
  record_delimiter: ["\r\n", "\n"],
};

/** One parse: csv-parse's string cells, and beside them whether each was quoted (`cast` sees it; csv-parse's types keep cells strings). */
function parsed(input: string): Field[][] {
  const quoted: boolean[][] = [];
  const cast = (value: string, context: InfoField): string => {
    // Cells are cast as they are read, before their record is counted: `records` is this record's index in the output.
    (quoted[context.records] ??= [])[context.index] = context.quoting;
    return value;
  };
  return parse(input, { ...OPTIONS, cast }).map((cells, record) => cells.map((value, i) => ({ value, quoted: quoted[record]?.[i] ?? false })));
}

/** csv-parse's records, blank lines skipped; a quote left open runs to the end of the text, as Python's non-strict reader keeps it. */
function records(text: string): Field[][] {
  try {
    return parsed(text);
  } catch (error) {
    if (error instanceof CsvError && error.code === "CSV_QUOTE_NOT_CLOSED") return parsed(`${text}"`);
    throw error;
  }
}

function csvError(message: string): PyError {
  return new PyError("Error", message);
}

/**
 * Python's reader ends a record at any "\r" outside quotes, and then accepts only more "\r"s before the line's
 * "\n" (io.StringIO splits lines at "\n" only): so "\r"s may only close a record's unquoted last field.
 */
function pythonRow(fields: Field[]): string[] {
  return fields.map(({ value, quoted }, i) => {
    if (quoted) return value;
    const kept = i === fields.length - 1 ? value.replace(/\r+$/, "") : value;
    if (kept.includes("\r")) throw csvError("new-line character seen in unquoted field - do you need to open the file with newline=''?");
    return kept;
  });
}

/** Each row a dict keyed by the header; extra cells go under the key None, missing cells are None. */
export function csvDictRows(text: string): PyValue[] {
  const rows = records(text).map(pythonRow);
  for (const row of rows) if (row.some((field) => [...field].length > FIELD_LIMIT)) throw csvError(`field larger than field limit (${FIELD_LIMIT})`);
  // DictReader takes the first line as the header even when it is blank (then every row is a rest list under None).
  const [header, ...body] = /^\r*(?:\n|$)/.test(text) ? [[], ...rows] : rows;
  if (header === undefined) return [];
  return body.map((row) => {
    const dict: PyDict = new Map();
    header.forEach((name, i) => {
      dict.set(name, i < row.length ? row[i]! : null);
    });
    if (header.length < row.length) dict.set(null, row.slice(header.length));
    return dict;
  });
}
