// The CLI's share of the bad-input corpus: malformed files and flags to every command that reads them. Each gets a clear
// message (a bad row as `file:line: path: problem`) and exit 1; never a stack trace, a crash or a hang.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { edgegym } from "../helpers/cli.js";
import { startTestLocal } from "../helpers/local.js";

const GOOD = JSON.stringify({ responses_create_params: { input: "hi" } });
const DEEP = `{"responses_create_params": {"input": "hi"}, "extra": ${"[".repeat(10_000)}${"]".repeat(10_000)}}`;

let dir: string;
let local: Local;
const file = (name: string, content: string | Uint8Array) => {
  const at = path.join(dir, name);
  writeFileSync(at, content);
  return at;
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "edgegym-cli-corpus-"));
  local = await startTestLocal({ environments: ["example_single_tool_call", "example_session_state_mgmt"] });
});
afterAll(async () => {
  await local?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface CliCase {
  name: string;
  args: () => string[];
  /** A line the message must name, as `file:line: `; or a pattern the message must hold. */
  names?: () => string | RegExp;
  /** Cases answered by one run of the command (every bad line of one file). */
  shared?: () => Promise<{ code: number; stdout: string; stderr: string }>;
}

/** A file whose line 2 is bad (line 1 good), checked by a command: the message names file:2. */
function badLine(name: string, line: string | Uint8Array, command: (f: string) => string[]): CliCase {
  let at = "";
  return {
    name,
    args: () => {
      const content = typeof line === "string" ? `${GOOD}\n${line}\n` : new Uint8Array([...Buffer.from(`${GOOD}\n`), ...line, 0x0a]);
      at = file(`${name.replace(/\W+/g, "-")}.jsonl`, content);
      return command(at);
    },
    names: () => `${at}:2: `,
  };
}

const validate = (f: string) => ["dataset", "validate", f];
const validateFor = (environment: string) => (f: string) => ["dataset", "validate", f, "-e", environment];
const collate = (f: string) => ["dataset", "collate", "-o", path.join(dir, "collated"), "-d", `example_single_tool_call:train:${f}`];

const BAD_LINES: [string, string | Uint8Array][] = [
  ["truncated JSON", '{"responses_create_params": {"input": "h'],
  ["invalid JSON", "{oops}"],
  ["a JSON array", "[1, 2, 3]"],
  ["a JSON number", "42"],
  ["input of the wrong type", JSON.stringify({ responses_create_params: { input: 5 } })],
  ["no responses_create_params", JSON.stringify({ question: "q" })],
  ["an item with an unknown role", JSON.stringify({ responses_create_params: { input: [{ role: "robot", content: "x" }] } })],
  ["nesting 10,000 deep", DEEP],
  ["bytes that are not UTF-8", new Uint8Array([...Buffer.from('{"responses_create_params": {"input": "'), 0xff, 0xfe, ...Buffer.from('"}}')])],
  ["a 9 MB line", `{"responses_create_params": {"input": "${"z".repeat(9_000_000)}"}}`],
  ["a 5-million-character string", `{"responses_create_params": {"input": "${"s".repeat(5_000_000)}"}}`],
];

/** Every kind of bad line in one file (line 1 good, then one bad line each): one run names each of them by its line. */
function everyBadLine(command: (f: string) => string[], which: "validate" | "collate"): CliCase[] {
  let at = "";
  const write = () => {
    const parts = [Buffer.from(`${GOOD}\n`), ...BAD_LINES.map(([, line]) => Buffer.concat([Buffer.from(line), Buffer.from("\n")]))];
    at = file(`every-bad-line-${which}.jsonl`, new Uint8Array(Buffer.concat(parts)));
    return command(at);
  };
  // One command run answers every case; the others read its answer.
  let run: Promise<{ code: number; stdout: string; stderr: string }> | undefined;
  return BAD_LINES.map(([name], i) => ({
    name: `${which}: ${name}`,
    args: write,
    names: () => `${at}:${i + 2}: `,
    shared: () => (run ??= edgegym(write(), 60_000)),
  }));
}

const CASES: CliCase[] = [
  ...everyBadLine(validate, "validate"),
  ...everyBadLine(collate, "collate"),
  badLine(
    "validate -e: a tool the environment does not serve",
    JSON.stringify({ responses_create_params: { input: "hi", tools: [{ type: "function", name: "teleport", parameters: {} }] } }),
    validateFor("example_single_tool_call"),
  ),
  badLine(
    "validate -e: a task field of the wrong type",
    JSON.stringify({ responses_create_params: { input: "hi" }, initial_count: "ten" }),
    validateFor("example_session_state_mgmt"),
  ),
  badLine("render: a row without the template's field", JSON.stringify({ topic: 1 }), (f) => [
    "dataset",
    "render",
    "-i",
    f,
    "--prompt-config",
    file("prompt.yaml", "user: 'Tell me about {subject}'\n"),
    "-o",
    path.join(dir, "rendered.jsonl"),
  ]),
  badLine("reverify: a line that is not JSON", "{not json", (f) => ["reverify", "-i", f]),
  { name: "validate: a file that does not exist", args: () => validate(path.join(dir, "missing.jsonl")), names: () => /missing\.jsonl/ },
  { name: "validate: a directory", args: () => validate(dir), names: () => /directory|EISDIR|not a file/i },
  { name: "validate: an unknown environment", args: () => ["dataset", "validate", file("good.jsonl", `${GOOD}\n`), "-e", "ghost"], names: () => /ghost/ },
  {
    name: "collect: repeats not a number",
    args: () => ["collect", "-i", file("c1.jsonl", `${GOOD}\n`), "-o", path.join(dir, "o.jsonl"), "-n", "many"],
    names: () => /num-repeats/,
  },
  {
    name: "collect: repeats zero",
    args: () => ["collect", "-i", file("c2.jsonl", `${GOOD}\n`), "-o", path.join(dir, "o.jsonl"), "-n", "0"],
    names: () => /num-repeats/,
  },
  {
    name: "collect: limit negative",
    args: () => ["collect", "-i", file("c3.jsonl", `${GOOD}\n`), "-o", path.join(dir, "o.jsonl"), "--limit", "-1"],
    names: () => /limit/,
  },
  {
    name: "collect: temperature a word",
    args: () => ["collect", "-i", file("c4.jsonl", `${GOOD}\n`), "-o", path.join(dir, "o.jsonl"), "--temperature", "hot"],
    names: () => /temperature/,
  },
  {
    name: "collect: an input that does not exist",
    args: () => ["collect", "-i", path.join(dir, "nowhere.jsonl"), "-o", path.join(dir, "o.jsonl"), "--url", local.url],
    names: () => /nowhere\.jsonl/,
  },
  {
    name: "collect: every row bad, against a gateway",
    args: () => ["collect", "-i", file("allbad.jsonl", "{oops\n[1]\n"), "-o", path.join(dir, "o2.jsonl"), "-e", "example_single_tool_call", "--url", local.url],
    names: () => /allbad\.jsonl:1: /,
  },
  {
    name: "collate: a spec without a split",
    args: () => ["dataset", "collate", "-o", path.join(dir, "c"), "-d", "example_single_tool_call"],
    names: () => /-d|split|spec/i,
  },
  {
    name: "collate: an unknown split",
    args: () => ["dataset", "collate", "-o", path.join(dir, "c"), "-d", `example_single_tool_call:holiday:${file("s.jsonl", `${GOOD}\n`)}`],
    names: () => /holiday|split/,
  },
  {
    name: "export: an unknown format",
    args: () => ["export", "--format", "csv", "-i", file("e.jsonl", `${GOOD}\n`), "-o", path.join(dir, "e.out")],
    names: () => /format/,
  },
  {
    name: "export: min-reward a word",
    args: () => ["export", "--format", "sft", "-i", file("e2.jsonl", `${GOOD}\n`), "-o", path.join(dir, "e.out"), "--min-reward", "high"],
    names: () => /min-reward/,
  },
  {
    name: "render: a prompt config that is not YAML",
    args: () => [
      "dataset",
      "render",
      "-i",
      file("r.jsonl", '{"subject": "x"}\n'),
      "--prompt-config",
      file("bad.yaml", "user: [unclosed\n"),
      "-o",
      path.join(dir, "r.out"),
    ],
    names: () => /bad\.yaml/,
  },
  { name: "jobs status: an unknown job", args: () => ["jobs", "status", "job_0000000000", "--url", local.url], names: () => /job_0000000000/ },
  { name: "jobs status: a path trick as a job id", args: () => ["jobs", "status", "../../health", "--url", local.url], names: () => /no job|unknown_job|404/ },
  { name: "jobs resume: an unknown job", args: () => ["jobs", "resume", "job_zzz", "--url", local.url], names: () => /job_zzz/ },
  { name: "logs: an unknown level", args: () => ["logs", "--level", "loud", "--state-dir", dir], names: () => /level/ },
  { name: "logs: no logs yet", args: () => ["logs", "--state-dir", path.join(dir, "empty")], names: () => /no log files/ },
];

describe("the CLI's bad-input corpus", () => {
  it(`every one of ${CASES.length} bad files and flags: exit 1, a clear message, no stack trace`, { timeout: 240_000 }, async () => {
    const problems: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < CASES.length) {
        const c = CASES[next++]!;
        const result = c.shared ? await c.shared() : await edgegym(c.args(), 60_000);
        const said = `${result.stderr}${result.stdout}`;
        const named = c.names?.();
        if (result.code !== 1) problems.push(`${c.name}: exit ${result.code}: ${said.slice(0, 300)}`);
        else if (/^\s+at /m.test(result.stderr) || /TypeError|RangeError|Maximum call stack|ReferenceError/.test(result.stderr))
          problems.push(`${c.name}: a crash: ${result.stderr.slice(0, 500)}`);
        else if (named !== undefined && !(typeof named === "string" ? said.includes(named) : named.test(said)))
          problems.push(`${c.name}: does not say ${String(named)}: ${said.slice(0, 300)}`);
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    expect(problems).toEqual([]);
  });
});
