// The layering rule of docs/architecture.md as code: each file's room, who may import whom, import cycles, and casts
// through `unknown`. Imports are read with TypeScript's own scanner (`ts.preProcessFile`), type-only ones included.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** Folders that hold no source of ours. */
const SKIPPED = new Set(["node_modules", ".git", ".sst", ".edgegym", ".wrangler", "out", "dist", "fixtures"]);
const SOURCE = /\.(ts|mts|cts|tsx)$/;

export type Floor = "ground" | "service" | "worker" | "environment" | "top";

export interface Room {
  /** `protocol`, `functions/agent`, `environments/sdk`, `environments/mcqa`, `local`… */
  name: string;
  floor: Floor;
}

const GROUND = new Set(["protocol", "contracts"]);
const SERVICES = new Set(["queues", "storage", "metrics", "http", "ledger", "environments/sdk"]);
/** Top-floor rooms held to the ground all the same: `client/` is published as edgegym/client and brings nothing else along. */
const GROUND_ONLY = new Set(["client"]);

/** The room a file (path relative to the project root, with "/") belongs to. */
export function roomOf(file: string): Room {
  const [first = "", second = ""] = file.split("/");
  if (GROUND.has(first)) return { name: first, floor: "ground" };
  if (first === "environments") {
    const name = `environments/${second}`;
    return SERVICES.has(name) ? { name, floor: "service" } : { name, floor: "environment" };
  }
  if (SERVICES.has(first)) return { name: first, floor: "service" };
  if (first === "functions") return { name: `functions/${second}`, floor: "worker" };
  // local/, infra/, aws/, client/, bench/, tests/ (and integrations/, Python) and the root's config files.
  return { name: file.includes("/") ? first : "(root)", floor: "top" };
}

/** Why an import from one room into another breaks the rule, or null when it may. */
export function forbidden(from: Room, to: Room): string | null {
  if (from.name === to.name) return null;
  if (GROUND_ONLY.has(from.name)) return to.floor === "ground" ? null : `${from.name}/ imports only the ground (protocol/, contracts/)`;
  if (from.floor === "top") return null;
  if (to.floor === "top") return `${from.floor} code never imports the top floor (local/, infra/, aws/, client/, bench/, tests/)`;
  switch (from.floor) {
    case "ground":
      return from.name === "contracts" && to.name === "protocol" ? null : "the ground imports nothing of ours (but contracts → protocol)";
    case "service":
      return to.floor === "ground" || to.floor === "service" ? null : "the service floor imports only the ground and the service floor";
    case "worker":
      if (to.floor === "worker") return "a Worker never imports another Worker's folder: move what they share down a floor";
      if (to.name.startsWith("environments/")) return "a Worker never imports environments/";
      return null;
    case "environment":
      if (to.floor === "worker") return "an environment never imports functions/";
      if (to.floor === "environment") return "an environment never imports another environment: move what they share into environments/sdk";
      return null;
  }
}

export interface Import {
  from: string;
  /** As written in the source. */
  specifier: string;
  /** The file it resolves to, relative to the root; undefined when it resolves to nothing. */
  to: string | undefined;
}

/** Every TypeScript file under the root (relative paths with "/"), sorted. */
export function sourceFiles(root: string, dir = ""): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const relative = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...sourceFiles(root, relative));
    else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(relative);
  }
  return out.sort();
}

/** Data a module imports (JSON): it has a room but no imports of its own, and the type check sees that it exists. */
const DATA = /\.json$/;

/** A relative specifier's file among the known ones: `.js` written for `.ts`, an extensionless path, or a folder's index. */
function resolve(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  if (DATA.test(base)) return base;
  const stem = base.replace(/\.(m|c)?js$/, "");
  const candidates = [base, `${stem}.ts`, `${stem}.mts`, `${stem}.cts`, `${stem}.tsx`, `${base}/index.ts`];
  return candidates.find((candidate) => known.has(candidate));
}

/** The relative imports of each file (static, type-only, re-exports and `import()`), resolved. */
export function importsOf(sources: ReadonlyMap<string, string>): Import[] {
  const known = new Set(sources.keys());
  const out: Import[] = [];
  for (const [file, text] of sources) {
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith(".")) continue; // a package or a runtime module (cloudflare:workers)
      out.push({ from: file, specifier: fileName, to: resolve(file, fileName, known) });
    }
  }
  return out;
}

/** Each import that breaks the rule, as "file imports specifier (room): why". */
export function layerViolations(imports: readonly Import[]): string[] {
  const out: string[] = [];
  for (const { from, specifier, to } of imports) {
    if (to === undefined) {
      out.push(`${from} imports ${specifier}, which is no file of ours`);
      continue;
    }
    const why = forbidden(roomOf(from), roomOf(to));
    if (why) out.push(`${from} imports ${specifier} (${roomOf(to).name}): ${why}`);
  }
  return out;
}

/** The strongly connected parts (Tarjan) of a graph with more than one node or a self-loop: each one is an import cycle. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      part.push(member);
    } while (member !== node);
    if (part.length > 1 || graph.get(node)?.includes(node)) found.push(part.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

function graphOf(edges: Iterable<[string, string]>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [from, to] of edges) {
    if (!graph.has(to)) graph.set(to, []);
    const next = graph.get(from) ?? [];
    if (!next.includes(to)) next.push(to);
    graph.set(from, next);
  }
  return graph;
}

/** Import cycles between files, each named by its files and the imports that close it. */
export function fileCycles(imports: readonly Import[]): string[] {
  const resolved = imports.filter((i): i is Import & { to: string } => i.to !== undefined);
  return cyclesOf(graphOf(resolved.map((i) => [i.from, i.to]))).map((part) => {
    const inside = new Set(part);
    const links = resolved.filter((i) => inside.has(i.from) && inside.has(i.to)).map((i) => `${i.from} → ${i.specifier}`);
    return `import cycle: ${links.join(", ")}`;
  });
}

/** Cycles between rooms below the top floor (two rooms that import each other, even through different files). */
export function roomCycles(imports: readonly Import[]): string[] {
  const edges: [string, string][] = [];
  const witness = new Map<string, string>();
  for (const { from, specifier, to } of imports) {
    if (to === undefined) continue;
    const [a, b] = [roomOf(from), roomOf(to)];
    if (a.name === b.name || a.floor === "top" || b.floor === "top") continue;
    edges.push([a.name, b.name]);
    if (!witness.has(`${a.name}→${b.name}`)) witness.set(`${a.name}→${b.name}`, `${from} → ${specifier}`);
  }
  return cyclesOf(graphOf(edges)).map((part) => {
    const inside = new Set(part);
    const links = [...witness].filter(([key]) => key.split("→").every((room) => inside.has(room))).map(([, link]) => link);
    return `rooms ${part.join(", ")} import each other: ${links.join(", ")}`;
  });
}

/** `x as unknown as T` (a cast that gives up on the types), by file and line. */
export function castsThroughUnknown(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const isUnknownCast = (node: ts.Node): boolean => {
    const inner = ts.isParenthesizedExpression(node) ? node.expression : node;
    return (ts.isAsExpression(inner) || ts.isTypeAssertionExpression(inner)) && inner.type.kind === ts.SyntaxKind.UnknownKeyword;
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && isUnknownCast(node.expression)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${file}:${line + 1}: ${node.getText(source).replace(/\s+/g, " ").slice(0, 120)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The project's sources, read once. */
export function readSources(root: string): Map<string, string> {
  return new Map(sourceFiles(root).map((file) => [file, readFileSync(path.join(root, file), "utf8")]));
}
