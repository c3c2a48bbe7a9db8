/**
 * bench/gateway.child.ts on the built dist/ with plain node (what `detour gateway` runs): no tsx, whose
 * transform adds a `__name` call per closure and keeps every file's source map in memory. Needs
 * `npm run build`. Usage: gateway-dist.child.mjs <upstream-url>.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStderrLogger } from "../dist/cli/stderr-logger.js";
import { startGateway } from "../dist/gateway/start-gateway.js";
import setup from "./gateway-setup.json" with { type: "json" };

const upstream = process.argv[2];
const home = mkdtempSync(join(tmpdir(), "detour-bench-"));
const logger = createStderrLogger(process.stderr, process.env.DETOUR_LOG_LEVEL ?? "info", "json");
const providers = Object.fromEntries(
  Object.entries(setup.config.models.providers).map(([id, provider]) => [id, { ...provider, baseUrl: `${upstream}${provider.baseUrl}` }]),
);
const gateway = await startGateway({ port: 0, logger, env: { DETOUR_HOME: home, ...setup.env }, config: { ...setup.config, models: { providers } } });
process.stdout.write(`${gateway.url}\n`);
process.stdin.resume();
process.stdin.on("close", () => {
  void gateway.close().then(() => {
    rmSync(home, { recursive: true, force: true });
    process.exit(0);
  });
});
