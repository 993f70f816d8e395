// What a fresh machine needs from `npm install` alone: every locked package runs on the Node versions package.json
// accepts (no EBADENGINE warning), the browser the dashboard test drives comes from npm, and CI installs nothing else.
import { readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { chromiumPath } from "../../local/browser.js";
import { PROJECT_ROOT } from "../../local/paths.js";

interface Lock {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
}

const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), "utf8");

describe("a fresh install", () => {
  it("locks no package whose engines exclude a Node version that package.json accepts", () => {
    const ours = JSON.parse(read("package.json")).engines.node as string;
    const lowest = semver.minVersion(ours)?.version;
    expect(lowest).toBeTruthy();
    const lock = JSON.parse(read("package-lock.json")) as Lock;
    const refused: string[] = [];
    for (const [where, entry] of Object.entries(lock.packages)) {
      const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!where || !wanted) continue;
      for (const node of [lowest as string, process.versions.node]) {
        if (!semver.satisfies(node, wanted)) refused.push(`${where}@${entry.version} wants node ${wanted}, not ${node}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it("brings Chromium through npm, with no system browser needed", async () => {
    const saved = process.env.EDGEGYM_CHROMIUM;
    delete process.env.EDGEGYM_CHROMIUM;
    try {
      const file = await chromiumPath();
      expect(file).not.toBe("/usr/bin/chromium");
    } finally {
      if (saved !== undefined) process.env.EDGEGYM_CHROMIUM = saved;
    }
  });

  it("has CI run exactly the README's test command after a clean install, installing nothing else", () => {
    const ci = read(".ci/run");
    expect(ci).not.toMatch(/apt-get|apt install|pip install|npx playwright install/);
    const commands = ci.split("\n").filter((line) => line.trim() && !line.trim().startsWith("#"));
    expect(commands).toContain("npm ci");
    expect(commands.at(-1)).toBe("npm test");
    expect(read("README.md")).toContain("npm install && npm test");
  });
});
