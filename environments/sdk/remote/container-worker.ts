// The Worker in front of a NeMo Gym resources server run by Cloudflare Containers (infra/containers/nemo-gym/Dockerfile):
// it checks edgegym's bearer token and forwards every request to the one container, which keeps NeMo Gym's sessions.
import { DurableObject } from "cloudflare:workers";
import { NEMO_GYM_PORT } from "./container-names.js";

export interface ContainerWorkerEnv {
  /** The token edgegym sends (the remote entry's `{ "kind": "bearer", "secret": "NEMO_GYM_TOKEN" }`). */
  NEMO_GYM_TOKEN?: string;
  SERVER: DurableObjectNamespace;
}

/** The part of the runtime's container handle this Worker uses. */
export type ContainerHandle = Pick<Container, "running" | "start" | "getTcpPort">;

/** Starts the container when it is not running, then forwards the request to ng_run's port; 503 while it boots. */
export async function forwardToContainer(container: ContainerHandle, request: Request): Promise<Response> {
  if (!container.running) container.start({ enableInternet: true });
  try {
    return await container.getTcpPort(NEMO_GYM_PORT).fetch(request);
  } catch {
    return Response.json({ detail: "the NeMo Gym container is starting" }, { status: 503, headers: { "retry-after": "5" } });
  }
}

/** 401 unless the request carries the configured bearer token; with no token configured, every request is refused. */
export function authorized(request: Request, token: string | undefined): boolean {
  return Boolean(token) && request.headers.get("authorization") === `Bearer ${token}`;
}

export class NemoGymServer extends DurableObject<ContainerWorkerEnv> {
  override async fetch(request: Request): Promise<Response> {
    const container = this.ctx.container;
    if (!container) return Response.json({ detail: "no container is attached to this Durable Object" }, { status: 500 });
    return forwardToContainer(container, request);
  }
}

export default {
  async fetch(request: Request, env: ContainerWorkerEnv): Promise<Response> {
    if (!authorized(request, env.NEMO_GYM_TOKEN)) return Response.json({ detail: "unauthorized" }, { status: 401 });
    // One server for every session: NeMo Gym keeps them in its memory.
    const server = env.SERVER.get(env.SERVER.idFromName("default"));
    // The token stops here: NeMo Gym never sees it.
    const forwarded = new Request(request);
    forwarded.headers.delete("authorization");
    return server.fetch(forwarded);
  },
} satisfies ExportedHandler<ContainerWorkerEnv>;
