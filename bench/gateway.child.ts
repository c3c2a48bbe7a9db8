/**
 * Detour's gateway as the benchmark runs it: SQLite store in a temp DETOUR_HOME, one healthy profile per
 * provider, the production logger (JSON lines at DETOUR_LOG_LEVEL, default info, to stderr), in its own
 * process so the harness can pin it to a core. Usage: gateway.child.ts <upstream-url>.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStderrLogger } from "../src/cli/stderr-logger.js";
import { startGateway } from "../src/gateway/start-gateway.js";
import type { LogLevel } from "../src/ports/events.js";

const upstream = process.argv[2] as string;
const home = mkdtempSync(join(tmpdir(), "detour-bench-"));
const logger = createStderrLogger(process.stderr, (process.env.DETOUR_LOG_LEVEL ?? "info") as LogLevel, "json");
const gateway = await startGateway({
  port: 0,
  logger,
  env: { DETOUR_HOME: home, BENCH_OPENAI: "sk-bench-openai-000000", BENCH_ANTHROPIC: "sk-ant-bench-000000" },
  config: {
    models: {
      providers: {
        openai: { api: "openai-completions", baseUrl: `${upstream}/v1` },
        anthropic: { api: "anthropic-messages", baseUrl: upstream },
      },
    },
    auth: {
      profiles: {
        "openai:bench": { provider: "openai", mode: "api_key", keyRef: { env: "BENCH_OPENAI" } },
        "anthropic:bench": { provider: "anthropic", mode: "api_key", keyRef: { env: "BENCH_ANTHROPIC" } },
      },
    },
    agents: { defaults: { model: { primary: "openai/bench-gpt", fallbacks: [] } } },
    state: { backend: "sqlite" },
  },
});
process.stdout.write(`${gateway.url}\n`);
process.stdin.resume();
process.stdin.on("close", () => {
  void gateway.close().then(() => {
    rmSync(home, { recursive: true, force: true });
    process.exit(0);
  });
});
