// list(csv.DictReader(io.StringIO(text))): CPython's csv reader state machine (excel dialect, non-strict) and DictReader.
import { PyError, type PyDict, type PyValue } from "../python/value.js";

const FIELD_LIMIT = 131072;
type State = "startRecord" | "startField" | "inField" | "inQuoted" | "quoteInQuoted" | "eatCrNl";
const EOL = Symbol("end of line");

class Reader {
  private state: State = "startRecord";
  private field = "";
  private fields: string[] = [];
  private readonly lines: string[];
  private next = 0;

  constructor(text: string) {
    // io.StringIO splits lines after "\n" only (a lone "\r" stays inside a line), keeping the terminator.
    this.lines = text.split(/(?<=\n)/).filter((line) => line !== "");
  }

  private save(): void {
    this.fields.push(this.field);
    this.field = "";
  }

  private add(c: string): void {
    if (this.field.length >= FIELD_LIMIT) throw new PyError("Error", `field larger than field limit (${FIELD_LIMIT})`);
    this.field += c;
  }

  private process(c: string | typeof EOL): void {
    const newline = c === "\n" || c === "\r";
    switch (this.state) {
      case "startRecord":
        if (c === EOL) return;
        if (newline) {
          this.state = "eatCrNl";
          return;
        }
        this.state = "startField";
      // falls through: a normal character starts the first field
      case "startField":
        if (newline || c === EOL) {
          this.save();
          this.state = c === EOL ? "startRecord" : "eatCrNl";
        } else if (c === '"') this.state = "inQuoted";
        else if (c === ",") this.save();
        else {
          this.add(c);
          this.state = "inField";
        }
        return;
      case "inField":
        if (newline || c === EOL) {
          this.save();
          this.state = c === EOL ? "startRecord" : "eatCrNl";
        } else if (c === ",") {
          this.save();
          this.state = "startField";
        } else this.add(c);
        return;
      case "inQuoted":
        if (c === EOL) return;
        if (c === '"') this.state = "quoteInQuoted";
        else this.add(c);
        return;
      case "quoteInQuoted":
        if (c === '"') {
          this.add(c);
          this.state = "inQuoted";
        } else if (c === ",") {
          this.save();
          this.state = "startField";
        } else if (newline || c === EOL) {
          this.save();
          this.state = c === EOL ? "startRecord" : "eatCrNl";
        } else {
          // Non-strict: text after a closing quote joins the field (`"ab"c` reads as abc).
          this.add(c);
          this.state = "inField";
        }
        return;
      case "eatCrNl":
        if (newline) return;
        if (c === EOL) {
          this.state = "startRecord";
          return;
        }
        throw new PyError("Error", "new-line character seen in unquoted field - do you need to open the file with newline=''?");
    }
  }

  /** The next record, [] for a blank line, undefined at the end of the input. */
  row(): string[] | undefined {
    this.fields = [];
    this.field = "";
    this.state = "startRecord";
    do {
      const line = this.lines[this.next++];
      if (line === undefined) {
        // The input ends inside a record: a non-strict reader keeps what it has.
        if (this.field !== "" || (this.state as State) === "inQuoted") {
          this.save();
          return this.fields;
        }
        return undefined;
      }
      for (const c of line) this.process(c);
      this.process(EOL);
    } while (this.state !== "startRecord");
    return this.fields;
  }
}

/** Each row a dict keyed by the header; extra cells go under the key None, missing cells are None. */
export function csvDictRows(text: string): PyValue[] {
  const reader = new Reader(text);
  const header = reader.row();
  if (header === undefined) return [];
  const rows: PyValue[] = [];
  for (let row = reader.row(); row !== undefined; row = reader.row()) {
    if (row.length === 0) continue;
    const dict: PyDict = new Map();
    header.forEach((name, i) => {
      if (i < row.length) dict.set(name, row[i]!);
    });
    if (header.length < row.length) dict.set(null, row.slice(header.length));
    for (const name of header.slice(row.length)) dict.set(name, null);
    rows.push(dict);
  }
  return rows;
}
