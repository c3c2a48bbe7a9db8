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
    // The soak samples RSS after a full GC so that "flat" compares live memory, not collector timing.
    execArgv: ["--expose-gc"],
  },
});
