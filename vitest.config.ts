import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // The JSON file is read by .ci/run to print the "N passed, N failed" line CI understands.
    reporters: ["default", ["json", { outputFile: ".vitest-results.json" }]],
  },
});
