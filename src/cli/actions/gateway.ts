/**
 * What `detour gateway` does: the OpenAI/Anthropic-compatible HTTP gateway (SPEC §14) plus the `cron.jobs`
 * scheduler, in one process over one engine, so cron runs and client requests share cooldowns, pins and probe
 * throttles. Logs go to stderr (JSON lines, or one readable line each with `--log-format pretty`, the default
 * on a terminal); the start-up banner is printed on stdout. SIGINT/SIGTERM stop the scheduler
 * (aborting runs in flight), close the listener and the store, and exit 0. SIGHUP and a change to the config
 * file reload the config (gateway-reloader.ts).
 */
import type { Command } from "commander";
import { readEnvKnobs } from "../../config/index.js";
import { createDetour } from "../../engine/index.js";
import { describeAllowedClients } from "../../gateway/request-guard.js";
import { assertSafeBinding } from "../../gateway/auth.js";
import { checkBindable } from "../../gateway/bind-check.js";
import { startGateway } from "../../gateway/start-gateway.js";
import type { CliDeps } from "../cli-deps.js";
import { commandContext, loadCliConfig } from "../command-context.js";
import { startCronJobs } from "../cron-jobs.js";
import { GatewayReloader } from "../gateway-reloader.js";
import { createStderrLogger } from "../stderr-logger.js";
import { gatewayBanner } from "../views/gateway-banner.js";

export interface GatewayFlags {
  host?: string;
  port?: number;
  json?: boolean;
  logFormat?: "json" | "pretty";
}

export async function serveGateway(deps: CliDeps, command: Command, options: GatewayFlags): Promise<void> {
  const context = commandContext(deps, command);
  const knobs = readEnvKnobs(deps.env, { cwd: deps.cwd });
  // Log lines at DETOUR_LOG_LEVEL (default info): JSON for machines, unless a person watches the terminal.
  const logFormat = options.logFormat ?? (deps.stderr.isTTY ? "pretty" : "json");
  const logger = createStderrLogger(deps.stderr, knobs.logLevel, logFormat);
  const loaded = await loadCliConfig(context);
  const config = loaded.config;
  // Where to listen is checked before the credentials: a bad host or a busy port is reported first, in words.
  const host = options.host ?? config.gateway.host;
  await checkBindable(host, options.port ?? config.gateway.port);
  assertSafeBinding(host, config.gateway.auth);
  // R-CF-5: with nothing configured, the engine discovers credentials (or fails saying how to add one).
  const detour = await createDetour({ config, env: deps.env, logger, discoverCredentials: {} });
  const discovery = detour.discovery ?? { kind: "configured" };
  let stopGateway: (() => Promise<void>) | undefined;
  let reloader: GatewayReloader | undefined;
  try {
    const running = await startGateway({
      detour,
      ...(options.host !== undefined ? { host: options.host } : {}),
      ...(options.port !== undefined ? { port: options.port } : {}),
      logger,
      env: deps.env,
    });
    stopGateway = () => running.close();
    const cron = startCronJobs(config.cron.jobs, detour.run, logger);
    reloader = new GatewayReloader({
      running,
      baseDetour: detour,
      config,
      cron,
      ...(loaded.path !== undefined ? { configFile: loaded.path } : {}),
      ...(context.configPath !== undefined ? { configPath: context.configPath } : {}),
      env: deps.env,
      cwd: deps.cwd,
      logger,
    });
    const reloads = reloader;
    reloads.watchConfigFile();
    const stopListening = deps.onReloadSignal?.(() => void reloads.reload("signal"));
    const discovered = discovery.kind === "discovered" ? discovery : undefined;
    // Which names and web pages the gateway answers: behind a proxy, the reason a request gets 403.
    const allowed = describeAllowedClients(loaded.config.gateway, running.port);
    if (options.json) {
      deps.stdout.write(
        `${JSON.stringify({
          url: running.url,
          configFile: loaded.path ?? null,
          allowedHosts: allowed.hosts,
          allowedOrigins: allowed.origins,
          cronJobs: cron.nextRuns(),
          discovered: discovered
            ? { envProfiles: discovered.envProfiles.map((found) => found.profileId), ollama: discovered.ollama?.baseUrl ?? null }
            : null,
        })}\n`,
      );
    } else {
      const banner = gatewayBanner({
        url: running.url,
        config,
        ...(loaded.path !== undefined ? { configFile: loaded.path } : {}),
        detourHome: knobs.detourHome,
        discovery,
        cronJobs: cron.nextRuns(),
        allowed,
      });
      for (const line of banner) context.out.line(line);
    }
    const signal = await deps.waitForShutdown();
    logger.log("info", `Received ${signal}; shutting down`, { event: "gateway_stopping", signal });
    stopListening?.();
    await reloads.stopReloading();
  } finally {
    await stopGateway?.();
    await reloader?.close();
    await detour.close();
  }
  logger.log("info", "Detour gateway stopped", { event: "gateway_stopped" });
}
