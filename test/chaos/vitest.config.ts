import { defineConfig } from "vitest/config";

/** `npm run chaos`: long, loopback-only fault runs that print figures; never part of `npm test`. */
export default defineConfig({
  test: {
    root: new URL("../..", import.meta.url).pathname,
    include: ["test/chaos/**/*.chaos.ts"],
    environment: "node",
    testTimeout: 20 * 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    fileParallelism: false,
  },
});
