// Which side a deployment stands up: Cloudflare (the default), AWS, or both, from EDGEGYM_BACKEND.
export type Backend = "cloudflare" | "aws" | "both";

export function selectedBackend(value = process.env.EDGEGYM_BACKEND): Backend {
  const chosen = (value ?? "").trim().toLowerCase() || "cloudflare";
  if (chosen === "cloudflare" || chosen === "aws" || chosen === "both") return chosen;
  throw new Error(`EDGEGYM_BACKEND must be cloudflare, aws or both, not "${value}"`);
}

export const deploysCloudflare = (backend: Backend) => backend !== "aws";
export const deploysAws = (backend: Backend) => backend !== "cloudflare";
