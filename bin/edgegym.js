#!/usr/bin/env node
// The `edgegym` command: runs the TypeScript CLI through tsx, so there is no build step.
import { register } from "tsx/esm/api";

register();
await import("../local/cli/main.ts");
