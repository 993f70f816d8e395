import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // The sandbox's Python environment, made once before the first test (tests/setup/sandbox-runtime.ts).
    globalSetup: ["tests/setup/sandbox-runtime.ts"],
    // Integration tests start workerd (Miniflare) and the simulator; give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
