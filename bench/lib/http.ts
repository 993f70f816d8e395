// The load generator's HTTP client: node:http with keep-alive (less CPU per call than fetch), every outcome classified.
import { Agent, type IncomingHttpHeaders, request } from "node:http";

export type Outcome =
  | { kind: "answer"; status: number; headers: IncomingHttpHeaders; text: string }
  /** The connection was reset or closed before an answer (ECONNRESET, socket hang up, EPIPE). */
  | { kind: "reset"; message: string }
  /** No answer within the client's own timeout: a call left hanging. */
  | { kind: "timeout" }
  | { kind: "error"; message: string };

export interface LoadClient {
  post(url: string, body: string, headers?: Record<string, string>): Promise<Outcome>;
  close(): void;
}

const RESET = /ECONNRESET|socket hang up|EPIPE|other side closed|ECONNREFUSED/i;

/**
 * `localAddresses`: source addresses to spread connections over (loopback gives ~28,000 ephemeral ports per address);
 * `timeoutMs`: how long a call may go unanswered before it counts as hanging.
 */
export function loadClient(options: { timeoutMs: number; localAddresses?: string[]; maxSockets?: number }): LoadClient {
  const addresses = options.localAddresses?.length ? options.localAddresses : [undefined];
  const agents = addresses.map(
    (localAddress) => new Agent({ keepAlive: true, maxSockets: options.maxSockets ?? Number.POSITIVE_INFINITY, ...(localAddress ? { localAddress } : {}) }),
  );
  let next = 0;
  return {
    post(url, body, headers = {}) {
      const agent = agents[next++ % agents.length]!;
      return new Promise<Outcome>((resolve) => {
        let settled = false;
        const settle = (outcome: Outcome) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(outcome);
        };
        const req = request(
          url,
          { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => settle({ kind: "answer", status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
            res.on("error", (error) => settle({ kind: RESET.test(error.message) ? "reset" : "error", message: error.message }));
          },
        );
        const timer = setTimeout(() => {
          settle({ kind: "timeout" });
          req.destroy();
        }, options.timeoutMs);
        req.on("error", (error: NodeJS.ErrnoException) => {
          const message = `${error.code ?? ""} ${error.message}`;
          settle({ kind: RESET.test(message) ? "reset" : "error", message });
        });
        req.end(body);
      });
    },
    close() {
      for (const agent of agents) agent.destroy();
    },
  };
}
