// The dashboard's routes: the page at `/` and its script and stylesheet, all served by the gateway itself (no CDN), all public
// (public.ts): they hold no data; the script asks the API for it with the bearer token.
import { etag } from "hono/etag";
import { createMiddleware } from "hono/factory";
import { gateway } from "../caller.js";
import { DASHBOARD_PREFIX } from "../public.js";
import { APP_CSS, APP_JS } from "./assets.generated.js";
import { PAGE } from "./page.js";

/** Only our own script, styles and API: no inline code, nothing from elsewhere, not framed. */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export const dashboard = gateway.createApp();

const headers = createMiddleware(async (c, next) => {
  await next();
  c.header("content-security-policy", CSP);
  c.header("x-content-type-options", "nosniff");
  c.header("referrer-policy", "no-referrer");
  // Revalidated on every load (cheap, with the ETag): a deploy is seen at once.
  c.header("cache-control", "no-cache");
});

// By path: this app is mounted at the root, and a path-less `use` would reach every API route too (and make an ETag of a stream).
for (const path of ["/", `${DASHBOARD_PREFIX}*`]) dashboard.use(path, etag(), headers);

dashboard.get("/", (c) => c.html(PAGE));
dashboard.get(`${DASHBOARD_PREFIX}app.js`, (c) => c.body(APP_JS, 200, { "content-type": "text/javascript; charset=utf-8" }));
dashboard.get(`${DASHBOARD_PREFIX}app.css`, (c) => c.body(APP_CSS, 200, { "content-type": "text/css; charset=utf-8" }));
