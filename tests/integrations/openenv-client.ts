// A client that makes OpenEnv's own client calls (github meta-pytorch/OpenEnv at 685de41): env_client.py EnvClient over
// `<base_url>/ws`, its payloads as MCPToolClient (mcp_client.py) builds them, and the HTTP routes of http_server.py.
import { fetch as miniflareFetch, type WebSocket } from "miniflare";

// Tests read arbitrary JSON answers field by field; typing each would say nothing the assertions do not.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** env_client.py EnvClient: one WebSocket per client, one answer per message, in order. */
export class OpenEnvSocketClient {
  private readonly waiting: ((message: Json) => void)[] = [];
  private readonly arrived: Json[] = [];
  closed = false;

  private constructor(private readonly ws: WebSocket) {
    ws.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data));
      const next = this.waiting.shift();
      if (next) next(message);
      else this.arrived.push(message);
    });
    ws.addEventListener("close", () => {
      this.closed = true;
    });
  }

  /**
   * connect(): `convert_to_ws_url(base_url) + "/ws"` (env_client.py __init__ and connect). `authorization` is the header
   * value sent: OpenEnv's client itself can only send a URL's user info, which `websockets` turns into Basic auth.
   */
  static async connect(baseUrl: string, authorization?: string): Promise<OpenEnvSocketClient> {
    const headers: Record<string, string> = { upgrade: "websocket" };
    if (authorization) headers.authorization = authorization;
    const response = await miniflareFetch(`${baseUrl}/ws`, { headers });
    const ws = response.webSocket;
    if (!ws) throw new Error(`no WebSocket: ${response.status} ${await response.text()}`);
    ws.accept();
    return new OpenEnvSocketClient(ws);
  }

  /** _send_and_receive: one message out, the next message in. */
  send(message: Json): Promise<Json> {
    this.ws.send(JSON.stringify(message));
    const ready = this.arrived.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** reset(**kwargs): {"type": "reset", "data": kwargs}; the answer's data is the StepResult payload. */
  reset(kwargs: Json = {}): Promise<Json> {
    return this.send({ type: "reset", data: kwargs });
  }

  /** step(action): {"type": "step", "data": _step_payload(action)}. */
  step(payload: Json): Promise<Json> {
    return this.send({ type: "step", data: payload });
  }

  state(): Promise<Json> {
    return this.send({ type: "state" });
  }

  /** disconnect(): {"type": "close"}, then the socket closes. */
  close(): void {
    this.ws.send(JSON.stringify({ type: "close" }));
  }
}

/** What `websockets` sends for `ws://<user>:<password>@host/...` (its client's build_authorization_basic). */
export const basicAuth = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

/** MCPToolClient._step_payload for CallToolAction. */
export const callTool = (toolName: string, args: Json) => ({ type: "call_tool", tool_name: toolName, arguments: args });

/** The final answer, edgegym's message action. */
export const answer = (content: string) => ({ type: "message", content });

/** The actions a recorded NeMo Gym rollout took: its function calls, then its last assistant message's text. */
export function recordedActions(rollout: Json): { actions: Json[]; outputs: Json[] } {
  const actions: Json[] = [];
  const outputs: Json[] = [];
  let final = "";
  for (const item of rollout.response.output) {
    if (item.type === "function_call") actions.push(callTool(item.name, JSON.parse(item.arguments)));
    if (item.type === "function_call_output") outputs.push(JSON.parse(item.output));
    if (item.type === "message" && item.role === "assistant") {
      final = typeof item.content === "string" ? item.content : item.content.map((part: Json) => part.text ?? "").join("");
    }
  }
  actions.push(answer(final));
  return { actions, outputs };
}
