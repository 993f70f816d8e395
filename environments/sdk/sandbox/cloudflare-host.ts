// The sandbox Worker (SANDBOX_PROVIDER=cloudflare): hosts the Sandbox SDK's container-backed Durable Object class, which
// environment Workers bind by script name (infra/sandbox.ts writes its wrangler config). It serves nothing itself.
export { Sandbox } from "@cloudflare/sandbox";

export default {
  async fetch(): Promise<Response> {
    return Response.json({ error: { code: "not_found", message: "the sandbox Worker is reached through its Durable Object binding only" } }, { status: 404 });
  },
} satisfies ExportedHandler;
