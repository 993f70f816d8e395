// Secrets, set with `sst secret set <Name> <value> --stage <stage>`: never in config files or logs.

export interface Secrets {
  /** Comma-separated vLLM (OpenAI-compatible) base URLs, each ending in /v1. */
  modelBaseUrls: sst.Secret;
  modelName: sst.Secret;
  modelApiKey: sst.Secret;
  /** The judge model for LLM-as-judge environments; empty means the policy model. */
  judgeBaseUrls: sst.Secret;
  judgeModelName: sst.Secret;
  judgeApiKey: sst.Secret;
  /** The bearer tokens the gateway accepts: comma-separated `name:token:scope+scope` entries. */
  apiTokens: sst.Secret;
  /** Per-tenant quotas beside the tokens: `name:jobs=20+rollouts=200000+bytes=2GiB+in_flight=64` entries, `*` the default; empty: none. */
  tenantQuotas: sst.Secret;
  /** The key every environment signs its session ids with (HMAC-SHA256): 32+ random characters. */
  sessionSecret: sst.Secret;
}

/** `gateway: false` (an AWS-only deployment, no gateway): ApiTokens is not asked for. */
export function createSecrets({ gateway = true }: { gateway?: boolean } = {}): Secrets {
  return {
    modelBaseUrls: new sst.Secret("ModelBaseUrls"),
    modelName: new sst.Secret("ModelName"),
    modelApiKey: new sst.Secret("ModelApiKey", ""),
    judgeBaseUrls: new sst.Secret("JudgeBaseUrls", ""),
    judgeModelName: new sst.Secret("JudgeModelName", ""),
    judgeApiKey: new sst.Secret("JudgeApiKey", ""),
    apiTokens: gateway ? new sst.Secret("ApiTokens") : new sst.Secret("ApiTokens", ""),
    tenantQuotas: new sst.Secret("TenantQuotas", ""),
    sessionSecret: gateway ? new sst.Secret("SessionSecret") : new sst.Secret("SessionSecret", ""),
  };
}

/** The value a Worker's secret binding gets: the deployment's secret for each name the topology lists. */
export function secretValues(secrets: Secrets, worker: "model-proxy" | "judge-proxy" | "other"): Record<string, $util.Input<string>> {
  if (worker === "model-proxy") {
    return { MODEL_BASE_URLS: secrets.modelBaseUrls.value, MODEL_NAME: secrets.modelName.value, MODEL_API_KEY: secrets.modelApiKey.value };
  }
  if (worker === "judge-proxy") {
    // An unset judge falls back to the policy model, as locally.
    const or = (judge: sst.Secret, policy: sst.Secret) => $resolve([judge.value, policy.value]).apply(([j, p]) => j || p);
    return {
      MODEL_BASE_URLS: or(secrets.judgeBaseUrls, secrets.modelBaseUrls),
      MODEL_NAME: or(secrets.judgeModelName, secrets.modelName),
      MODEL_API_KEY: or(secrets.judgeApiKey, secrets.modelApiKey),
    };
  }
  return { API_TOKENS: secrets.apiTokens.value, TENANT_QUOTAS: secrets.tenantQuotas.value, SESSION_SECRET: secrets.sessionSecret.value };
}
