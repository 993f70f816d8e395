// The environments an AWS agent runs in process: every bundled one (or those named), loaded from environments/<name>/.
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Environment } from "../environments/sdk/index.js";
import { discoverEnvironments } from "../infra/environments.js";

/**
 * Environments that cannot run in process: their tools or verifier need `ctx.sql`, a session Durable Object's SQLite.
 * They are left out of a worker unless named, where their rollouts would fail.
 */
export const NEEDS_DURABLE_OBJECT: ReadonlySet<string> = new Set(["text_to_sql"]);

/** The environments to run: those named (comma-separated), else every bundled one that runs in process. */
export function chooseEnvironments(root: string, chosen?: string): string[] {
  const all = discoverEnvironments(root);
  if (!chosen?.trim()) return all.filter((name) => !NEEDS_DURABLE_OBJECT.has(name));
  const names = [
    ...new Set(
      chosen
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = names.filter((name) => !all.includes(name));
  if (unknown.length) throw new Error(`unknown environment(s): ${unknown.join(", ")} (known: ${all.join(", ")})`);
  return names;
}

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
