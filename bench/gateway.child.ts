/**
 * Detour's gateway as the benchmark runs it: SQLite store in a temp DETOUR_HOME, one healthy profile per
 * provider (bench/gateway-setup.json), the production logger (JSON lines at DETOUR_LOG_LEVEL, default info, to
 * stderr), in its own process so the harness can pin it to a core. Usage: gateway.child.ts <upstream-url>.
 * This one runs src/ through tsx; bench/gateway-dist.child.mjs runs the built dist/ (`BENCH_DIST=1`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStderrLogger } from "../src/cli/stderr-logger.js";
import type { DetourConfigInput } from "../src/config/index.js";
import { startGateway } from "../src/gateway/start-gateway.js";
import type { LogLevel } from "../src/ports/events.js";
import setup from "./gateway-setup.json" with { type: "json" };

const upstream = process.argv[2] as string;
const home = mkdtempSync(join(tmpdir(), "detour-bench-"));
const logger = createStderrLogger(process.stderr, (process.env.DETOUR_LOG_LEVEL ?? "info") as LogLevel, "json");
const providers = Object.fromEntries(
  Object.entries(setup.config.models.providers).map(([id, provider]) => [id, { ...provider, baseUrl: `${upstream}${provider.baseUrl}` }]),
);
const gateway = await startGateway({
  port: 0,
  logger,
  env: { DETOUR_HOME: home, ...setup.env },
  config: { ...setup.config, models: { providers } } as DetourConfigInput,
});
process.stdout.write(`${gateway.url}\n`);
process.stdin.resume();
process.stdin.on("close", () => {
  void gateway.close().then(() => {
    rmSync(home, { recursive: true, force: true });
    process.exit(0);
  });
});
