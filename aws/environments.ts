// The environments an AWS agent runs in process: every bundled one (or those named), loaded from environments/<name>/.
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Environment } from "../environments/sdk/index.js";
export { chooseEnvironments, NEEDS_DURABLE_OBJECT } from "../infra/lambda-entry.js";

/** Imports each environment's definition (Node; a Lambda bundle imports them statically instead, see infra/aws.ts). */
export async function loadEnvironments(root: string, names: readonly string[]): Promise<Record<string, Environment>> {
  const loaded = await Promise.all(
    names.map(async (name) => {
      const module = (await import(pathToFileURL(path.join(root, "environments", name, "index.ts")).href)) as { default: Environment };
      return [name, module.default] as const;
    }),
  );
  return Object.fromEntries(loaded);
}
