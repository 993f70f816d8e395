// docs/architecture.md's layering rule, held over every TypeScript file: imports run only downwards, no cycles, and no
// cast through `unknown` outside the tests.
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../local/paths.js";
import { castsThroughUnknown, fileCycles, importsOf, layerViolations, readSources, roomCycles, roomOf } from "./layers.js";

const sources = readSources(PROJECT_ROOT);
const imports = importsOf(sources);

describe("the project's imports", () => {
  it("reads every room of the architecture", () => {
    const rooms = new Set([...sources.keys()].map((file) => roomOf(file).name));
    for (const room of [
      "protocol",
      "contracts",
      "queues",
      "storage",
      "metrics",
      "http",
      "ledger",
      "environments/sdk",
      "functions/agent",
      "functions/gateway",
      "local",
      "aws",
      "client",
    ]) {
      expect(rooms, room).toContain(room);
    }
    expect(roomOf("ledger/seal.ts")).toEqual({ name: "ledger", floor: "service" });
    expect(roomOf("aws/ports.ts")).toEqual({ name: "aws", floor: "top" });
    expect(roomOf("client/index.ts")).toEqual({ name: "client", floor: "top" });
    // Type-only imports count: contracts/env.generated.ts imports nothing but types.
    expect(imports.filter((i) => i.from === "contracts/env.generated.ts").map((i) => i.to)).toContain("contracts/rpc.ts");
  });

  it("run only downwards (ground ← services ← Workers and environments ← top)", () => {
    expect(layerViolations(imports)).toEqual([]);
  });

  it("form no cycle, between files or between rooms", () => {
    expect(fileCycles(imports)).toEqual([]);
    expect(roomCycles(imports)).toEqual([]);
  });

  it("never cast through unknown outside tests/", () => {
    const casts = [...sources].filter(([file]) => !file.startsWith("tests/")).flatMap(([file, text]) => castsThroughUnknown(file, text));
    expect(casts).toEqual([]);
  });
});

describe("the checks themselves catch what they are for", () => {
  const project = (files: Record<string, string>) => importsOf(new Map(Object.entries(files)));

  it("names the file, the import and the rule it breaks", () => {
    const found = layerViolations(
      project({
        "functions/agent/a.ts": 'import { b } from "../gateway/b.js";\nimport type { E } from "../../environments/sdk/index.js";',
        "functions/gateway/b.ts": "export const b = 1;",
        "environments/sdk/index.ts": "export type E = 1;",
        "environments/mcqa/index.ts": 'export { x } from "../string_match/x.js";',
        "environments/string_match/x.ts": 'import { a } from "../../functions/agent/a.js";',
        "protocol/p.ts": 'import "../contracts/c.js";',
        "contracts/c.ts": 'import "../protocol/p.js";\nimport "../queues/q.js";',
        "queues/q.ts": 'const m = await import("../local/l.js");',
        "local/l.ts": 'import "../functions/agent/a.js";\nimport "./missing.js";',
        "ledger/seal.ts": 'import "../storage/s.js";\nimport "../aws/ports.js";\nimport "../functions/writer/w.js";',
        "storage/s.ts": "export {};",
        "aws/ports.ts": 'import "../ledger/seal.js";\nimport "../functions/agent/a.js";',
        "functions/writer/w.ts": "export {};",
        "client/index.ts": 'import type { P } from "../protocol/p.js";\nimport "../storage/s.js";\nimport "../local/l.js";',
      }),
    );
    expect(found).toEqual([
      "functions/agent/a.ts imports ../gateway/b.js (functions/gateway): a Worker never imports another Worker's folder: move what they share down a floor",
      "functions/agent/a.ts imports ../../environments/sdk/index.js (environments/sdk): a Worker never imports environments/",
      "environments/mcqa/index.ts imports ../string_match/x.js (environments/string_match): an environment never imports another environment: move what they share into environments/sdk",
      "environments/string_match/x.ts imports ../../functions/agent/a.js (functions/agent): an environment never imports functions/",
      "protocol/p.ts imports ../contracts/c.js (contracts): the ground imports nothing of ours (but contracts → protocol)",
      "contracts/c.ts imports ../queues/q.js (queues): the ground imports nothing of ours (but contracts → protocol)",
      "queues/q.ts imports ../local/l.js (local): service code never imports the top floor (local/, infra/, aws/, client/, bench/, tests/)",
      "local/l.ts imports ./missing.js, which is no file of ours",
      "ledger/seal.ts imports ../aws/ports.js (aws): service code never imports the top floor (local/, infra/, aws/, client/, bench/, tests/)",
      "ledger/seal.ts imports ../functions/writer/w.js (functions/writer): the service floor imports only the ground and the service floor",
      "client/index.ts imports ../storage/s.js (storage): client/ imports only the ground (protocol/, contracts/)",
      "client/index.ts imports ../local/l.js (local): client/ imports only the ground (protocol/, contracts/)",
    ]);
  });

  it("finds cycles through type-only imports, and between rooms through different files", () => {
    const files = project({
      "metrics/a.ts": 'import type { B } from "./b.js";\nexport type A = B;',
      "metrics/b.ts": 'import type { A } from "./a.js";\nexport type B = A;',
      "http/h.ts": 'import "../storage/s.js";',
      "storage/s.ts": "export {};",
      "storage/t.ts": 'import "../http/i.js";',
      "http/i.ts": "export {};",
    });
    expect(fileCycles(files)).toEqual(["import cycle: metrics/a.ts → ./b.js, metrics/b.ts → ./a.js"]);
    expect(roomCycles(files)).toEqual(["rooms http, storage import each other: http/h.ts → ../storage/s.js, storage/t.ts → ../http/i.js"]);
  });

  it("finds `as unknown as` in code but not in comments or strings", () => {
    const text = [
      "// never `x as unknown as T`",
      'const s = "as unknown as";',
      "const n = (value as unknown as number) + 1;",
      "const m = <T>(<unknown>value);",
    ].join("\n");
    expect(castsThroughUnknown("bench/x.ts", text)).toEqual(["bench/x.ts:3: value as unknown as number", "bench/x.ts:4: <T>(<unknown>value)"]);
  });
});
