// The routes anyone may fetch without a token: the health check and the dashboard's static shell (its data needs one).

/** The dashboard's page and assets live under this prefix (and at `/`). */
export const DASHBOARD_PREFIX = "/dashboard/";

export function isPublicPath(path: string): boolean {
  return path === "/health" || path === "/" || path.startsWith(DASHBOARD_PREFIX);
}
