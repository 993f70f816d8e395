// OpenEnv's EnvClient opens its WebSocket with no headers of its own (env_client.py connect: ws_connect(url, ...)); the
// `websockets` library it uses sends a URL's user info as Basic auth. So `http://openenv:<token>@host/openenv/<env>` as
// base_url carries the token: on /openenv/ routes a Basic password is taken as the bearer token, before the token check.
import { gateway } from "../caller.js";

function basicPassword(header: string | undefined): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? "");
  if (!match?.[1]) return undefined;
  let decoded: string;
  try {
    decoded = atob(match[1]);
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(":");
  return colon >= 0 && colon < decoded.length - 1 ? decodeURIComponent(decoded.slice(colon + 1)) : undefined;
}

/** Mounted on /openenv/* ahead of the guards: `Authorization: Basic <user:token>` becomes `Bearer <token>`. */
export const basicAsBearer = gateway.createMiddleware(async (c, next) => {
  const password = basicPassword(c.req.header("authorization"));
  if (password !== undefined) {
    const headers = new Headers(c.req.raw.headers);
    headers.set("authorization", `Bearer ${password}`);
    c.req.raw = new Request(c.req.raw, { headers });
  }
  await next();
});
