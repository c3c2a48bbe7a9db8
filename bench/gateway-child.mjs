/**
 * What both gateway children do once they know where the gateway's modules are (src/ through tsx, or a built
 * dist/ on plain node): start it on the bench's setup (SQLite store in a temp DETOUR_HOME, one healthy profile
 * per provider from gateway-setup.json, the production logger: JSON lines at DETOUR_LOG_LEVEL, default info,
 * to stderr), print its URL, and close it when stdin closes. Plain JavaScript, so the dist child needs no tsx.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import setup from "./gateway-setup.json" with { type: "json" };

/** `root`: the URL of the directory holding cli/ and gateway/ (src/ or a dist/). */
export async function serveBenchGateway(upstream, root) {
  const { createStderrLogger } = await import(new URL("cli/stderr-logger.js", root).href);
  const { startGateway } = await import(new URL("gateway/start-gateway.js", root).href);
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
}
