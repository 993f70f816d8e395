// The CLI prints what a gateway (or a bucket, or a row) says on one line, its control characters escaped: an error
// message from outside cannot forge lines or drive the terminal.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { edgegym } from "../helpers/cli.js";

const HOSTILE = "no such job\u001b[31m red\nedgegym: FAKE\r\u009b2J";

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.startsWith("/v1/jobs/job_envelope")) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "not_found", message: HOSTILE } }));
    } else {
      res.writeHead(502, { "content-type": "text/plain" }).end(HOSTILE);
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

describe("edgegym's errors quote the gateway escaped", () => {
  for (const id of ["job_envelope", "job_plain"]) {
    it(`${id}: one line on stderr, exit 1, ESC/CR/newline/CSI written as escapes`, async () => {
      const { code, stderr } = await edgegym(["jobs", "status", id, "--url", url, "--token", "t"]);
      expect(code).toBe(1);
      expect(stderr).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
      expect(stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(stderr).toContain("no such job\\u001b[31m red\\nedgegym: FAKE\\r\\u009b2J");
    });
  }
});
