// Where the dashboard's static shell is served (public: guards/policy.ts; its data needs a token).

/** The dashboard's page and assets live under this prefix (and at `/`). */
export const DASHBOARD_PREFIX = "/dashboard/";
