// `edgegym dev`'s console: a request path with control characters (a terminal escape, a newline) shows as one line
// with those characters escaped, never raw (no forged lines, no colours or cursor moves driven from outside).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { connect } from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../local/paths.js";

/** Sends `head` as it is (raw bytes) and waits for the answer to end. */
function rawRequest(url: string, head: Buffer): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.end(head));
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
    socket.on("close", () => resolve(answer));
    socket.on("error", () => resolve(answer));
  });
}

describe("edgegym dev: the console escapes control characters", () => {
  it("a path carrying ESC and a newline (percent-encoded or raw) is printed as one escaped line", async () => {
    const { API_TOKENS: _a, ...inherited } = process.env;
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, "bin", "edgegym.js"), "dev", "--port", "0", "--environments", "mcqa"], {
      cwd: PROJECT_ROOT,
      env: { ...inherited, EDGEGYM_TOKEN: `edgegym_test_${randomUUID()}` },
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("latin1")));
    const url = await new Promise<string>((resolve, reject) => {
      child.on("exit", () => reject(new Error(`dev exited early: ${stdout}`)));
      child.stdout.on("data", () => {
        const match = /edgegym gateway: (\S+)\n[\s\S]*environments: .*\n/.exec(stdout);
        if (match) resolve(match[1]!);
      });
    });
    try {
      await fetch(`${url}/%1b[31mX%0aFAKE`);
      await rawRequest(url, Buffer.from(`GET /\x1b[32mY\x9b2J HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`, "latin1"));
      // One more request, so both above have been printed once its line is.
      await fetch(`${url}/last-one`);
      for (let waited = 0; !stdout.includes("/last-one") && waited < 15_000; waited += 100) await sleep(100);
      expect(stdout).toContain("/last-one");
      // No raw control character reached the console (C0 but \n, DEL, C1), and no line starts with the forged text.
      expect(stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
      const lines = stdout.split("\n");
      expect(lines.filter((line) => line.startsWith("FAKE"))).toEqual([]);
      // The encoded request: its line shows the escapes as text.
      expect(lines.filter((line) => line.includes("\\u001b[31mX\\nFAKE"))).toHaveLength(1);
    } finally {
      child.kill("SIGINT");
    }
    expect([0, 130]).toContain(await exited);
  });
});
