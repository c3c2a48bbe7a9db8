/**
 * bench/gateway.child.ts on the built dist/ with plain node (what `detour gateway` runs): no tsx, whose
 * transform adds a `__name` call per closure and keeps every file's source map in memory. Needs
 * `npm run build`. Usage: gateway-dist.child.mjs <upstream-url> [<dist directory>]; the second argument runs
 * another checkout's built gateway (the bench's BENCH_BASELINE) with this same setup.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import setup from "./gateway-setup.json" with { type: "json" };

const upstream = process.argv[2];
const dist = process.argv[3] ? pathToFileURL(`${process.argv[3]}/`) : new URL("../dist/", import.meta.url);
const { createStderrLogger } = await import(new URL("cli/stderr-logger.js", dist).href);
const { startGateway } = await import(new URL("gateway/start-gateway.js", dist).href);
const home = mkdtempSync(join(tmpdir(), "detour-bench-"));
const logger = createStderrLogger(process.stderr, process.env.DETOUR_LOG_LEVEL ?? "info", "json");
const providers = Object.fromEntries(
  Object.entries(setup.config.models.providers).map(([id, provider]) => [id, { ...provider, baseUrl: `${upstream}${provider.baseUrl}` }]),
);
const gateway = await startGateway({
  port: 0,
  logger,
  env: { DETOUR_HOME: home, ...setup.env },
  config: { ...setup.config, models: { providers } },
});
process.stdout.write(`${gateway.url}\n`);
process.stdin.resume();
process.stdin.on("close", () => {
  void gateway.close().then(() => {
    rmSync(home, { recursive: true, force: true });
    process.exit(0);
  });
});
