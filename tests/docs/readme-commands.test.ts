// The documentation, executed (1/3): every command README.md and integrations/README.md show has an entry that runs it
// (readme-offline and readme-gateway.test.ts), another test that does, or the reason it cannot run here.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../local/paths.js";
import { type DocumentedCommand, extractCommands } from "./extract-commands.js";
import { isSstCommand, KNOWN_BROKEN_UNTIL_MERGE, NOT_RUN_HERE, RUN_BY_OTHER_TESTS } from "./not-run.js";
import { GATEWAY, PART_OF } from "./gateway.table.js";
import { OFFLINE } from "./offline.table.js";

const DOCS = ["README.md", "integrations/README.md"];
const documented: DocumentedCommand[] = DOCS.flatMap((file) => extractCommands(path.join(PROJECT_ROOT, file), file));
const ENTRIES = [...OFFLINE, ...GATEWAY];
const TABLE = "tests/docs/offline.table.ts (no gateway) or tests/docs/gateway.table.ts";

describe("the documented commands", () => {
  it("each has an entry: run here, run by another test, part of a recipe, or not runnable here with the reason", () => {
    const known = new Set([...ENTRIES.map((e) => e.doc), ...Object.keys(NOT_RUN_HERE), ...Object.keys(RUN_BY_OTHER_TESTS), ...Object.keys(PART_OF)]);
    const missing = documented.filter((c) => !known.has(c.command) && !isSstCommand(c.command));
    expect(
      missing.map(
        (c) =>
          `${c.where}: \`${c.command}\` has no entry: add one to ${TABLE} (how to run it, what the README says it does), or to NOT_RUN_HERE in tests/docs/not-run.ts with the reason`,
      ),
    ).toEqual([]);
    // And the other way: an entry whose command the READMEs no longer show is stale.
    const shown = new Set(documented.map((c) => c.command));
    expect([...known].filter((command) => !shown.has(command)).map((command) => `no README shows \`${command}\` any more: drop or update its entry`)).toEqual(
      [],
    );
    expect(Object.keys(KNOWN_BROKEN_UNTIL_MERGE).filter((command) => !ENTRIES.some((e) => e.doc === command))).toEqual([]);
  });

  it("the extractor finds the README's commands: continuations joined, comments cut, `&` noted", () => {
    expect(documented.length).toBeGreaterThan(60);
    const agent = documented.find((c) => c.command.startsWith("EDGEGYM_TOKEN=... python3"));
    expect(agent).toMatchObject({ background: true, command: "EDGEGYM_TOKEN=... python3 integrations/nemo_gym/edgegym_agent.py --gateway https://<gateway>" });
    expect(documented.some((c) => c.command.includes("\\") || / #/.test(c.command))).toBe(false);
  });

  it("the extractor: shell blocks line by line, inline commands, other blocks and inline names left out", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "edgegym-extract-"));
    const file = path.join(dir, "doc.md");
    const md = [
      "Run `npx edgegym jobs list` or `npm run dev`; `edgegym logs [--job id]` is a name, `out.jsonl` a file.",
      "```sh",
      "npx edgegym collect -e a \\",
      "  -i 'x # y.jsonl' -o out.jsonl   # a comment",
      "python3 server.py --gateway https://<gateway> &   # in the background",
      "",
      "#   an output line",
      "```",
      "```console",
      "$ npm test",
      "```",
      "```python",
      "print('not a command')",
      "```",
    ].join("\n");
    writeFileSync(file, md);
    expect(extractCommands(file, "doc.md")).toEqual([
      { command: "npx edgegym jobs list", where: "doc.md:1", background: false, from: "inline" },
      { command: "npm run dev", where: "doc.md:1", background: false, from: "inline" },
      { command: "npx edgegym collect -e a -i 'x # y.jsonl' -o out.jsonl", where: "doc.md:3", background: false, from: "block" },
      { command: "python3 server.py --gateway https://<gateway>", where: "doc.md:5", background: true, from: "block" },
      { command: "npm test", where: "doc.md:10", background: false, from: "block" },
    ]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("the commands other tests run are still run there", () => {
    for (const [command, { file, shows }] of Object.entries(RUN_BY_OTHER_TESTS)) {
      expect(existsSync(path.join(PROJECT_ROOT, file)), `${command}: ${file}`).toBe(true);
      expect(readFileSync(path.join(PROJECT_ROOT, file), "utf8"), `${command}: ${file}`).toContain(shows);
    }
    const scripts = (JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toBe("tsx local/start.ts");
  });

  it("`npx sst` (not runnable offline): every secret it sets and every variable it reads is one infra/ declares", () => {
    // Every file of infra/ (remote environments and the NeMo Gym container read their variables in their own files).
    const infra = readdirSync(path.join(PROJECT_ROOT, "infra"))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => readFileSync(path.join(PROJECT_ROOT, "infra", f), "utf8"))
      .join("\n");
    const config = readFileSync(path.join(PROJECT_ROOT, "sst.config.ts"), "utf8") + infra;
    const sst = documented.filter((c) => isSstCommand(c.command));
    expect(sst.length).toBeGreaterThan(5);
    for (const { command, where } of sst) {
      const secret = /secret set (\w+)/.exec(command)?.[1];
      if (secret) expect(infra, `${where}: ${secret}`).toContain(`new sst.Secret("${secret}"`);
      for (const variable of command.match(/^(?:[A-Z_]+=\S+ )+/)?.[0].match(/[A-Z_]+(?==)/g) ?? []) expect(config, `${where}: ${variable}`).toContain(variable);
    }
  });
});
