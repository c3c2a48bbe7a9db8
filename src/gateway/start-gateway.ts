/**
 * Programmatic start of the gateway: `startGateway({ config?, configPath?, host?, port? })`
 * resolves to `{ url, close() }`. Port 0 picks a free port. Without a Detour it builds one on the configured
 * state backend with providers from the config. Binding a non-loopback host without client tokens is
 * refused before anything listens (R-GW-5).
 */
import type { FastifyInstance } from "fastify";
import {
  describeMissingEnvReference,
  loadConfig,
  missingEnvReferences,
  parseConfig,
  type DetourConfig,
  type DetourConfigInput,
} from "../config/index.js";
import { createDetour, type CreateDetourOptions, type Detour } from "../engine/index.js";
import type { Clock } from "../ports/clock.js";
import { silentLogger, type Logger } from "../ports/events.js";
import type { StateStore } from "../ports/state-store.js";
import { buildGateway, type BuildGatewayAppOptions } from "./app.js";
import { assertSafeBinding } from "./auth.js";
import { checkBindable, GatewayPortInUseError } from "./bind-check.js";

export { GatewayCannotBindError, GatewayPortInUseError } from "./bind-check.js";

export interface StartGatewayOptions {
  /** A config object (validated here); else `configPath` or the usual lookup (R-CF-1). */
  config?: DetourConfigInput | DetourConfig;
  configPath?: string;
  /** Override `gateway.host` / `gateway.port`. */
  host?: string;
  port?: number;
  /** An engine to serve; the caller keeps ownership (it is not closed by `close()`). */
  detour?: BuildGatewayAppOptions["detour"] & Partial<Pick<Detour, "config">>;
  /** A state store for the engine Detour builds (ignored when `detour` is given). */
  store?: StateStore | ((agentId: string) => StateStore | Promise<StateStore>);
  /** Providers to use instead of the ones the config describes (ignored when `detour` is given). */
  providers?: CreateDetourOptions["providers"];
  clock?: Clock;
  logger?: Logger;
  env?: Readonly<Record<string, string | undefined>>;
}

export interface RunningGateway {
  /** `http://<host>:<port>` — append `/v1` for OpenAI/Anthropic SDK base URLs. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly app: FastifyInstance;
  readonly detour: BuildGatewayAppOptions["detour"];
  /**
   * Hot reload: requests that arrive from now on are served by `detour` with `config`; resolves once the
   * requests in flight on the previous engine (streams included) have finished, so the caller may close it.
   * Restart-only settings (RESTART_ONLY_SETTINGS) keep their running values and are logged. Throws (and swaps
   * nothing) when the new auth settings would make the current binding unsafe (R-GW-5).
   */
  reloadEngine(engine: { detour: BuildGatewayAppOptions["detour"]; config: DetourConfig }): Promise<void>;
  /** Stops listening, lets in-flight requests finish, and closes the engine if this call created it. */
  close(): Promise<void>;
}

/** Settings bound when the listener starts: a reload logs a change to them and keeps the running value. */
export const RESTART_ONLY_SETTINGS = ["host", "port", "maxBodyMb"] as const;

/** The new config with the running values of the restart-only settings, plus the paths that changed. */
export function keepRestartOnlySettings(running: DetourConfig, next: DetourConfig): { config: DetourConfig; changed: string[] } {
  const changed = RESTART_ONLY_SETTINGS.filter((key) => running.gateway[key] !== next.gateway[key]).map((key) => `gateway.${key}`);
  if (changed.length === 0) return { config: next, changed };
  const gateway = { ...next.gateway, host: running.gateway.host, port: running.gateway.port, maxBodyMb: running.gateway.maxBodyMb };
  return { config: { ...next, gateway }, changed };
}

async function resolveConfig(options: StartGatewayOptions, logger: Logger): Promise<DetourConfig> {
  if (options.detour?.config) return options.detour.config;
  const { config, warnings } =
    options.config !== undefined
      ? parseConfig(options.config, "the config passed to startGateway")
      : await loadConfig({
          ...(options.configPath !== undefined ? { configPath: options.configPath } : {}),
          env: (options.env ?? process.env) as NodeJS.ProcessEnv,
        });
  for (const warning of warnings) logger.log("warn", warning);
  return config;
}

function urlHost(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

export async function startGateway(options: StartGatewayOptions = {}): Promise<RunningGateway> {
  const logger = options.logger ?? silentLogger;
  const config = await resolveConfig(options, logger);
  const host = options.host ?? config.gateway.host;
  const port = options.port ?? config.gateway.port;
  // Where it listens is checked first: a mistyped host or a busy port is reported as such.
  await checkBindable(host, port);
  assertSafeBinding(host, config.gateway.auth);
  // R-AP-2: said once at start, naming variable and profile, rather than discovered by every request.
  for (const missing of missingEnvReferences(config, options.env ?? process.env)) {
    logger.log("warn", describeMissingEnvReference(missing), { profileId: missing.profileId, variable: missing.variable });
  }

  const ownsDetour = options.detour === undefined;
  const detour =
    options.detour ??
    (await createDetour({
      config,
      ...(options.store ? { store: options.store } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
      logger,
      ...(options.env ? { env: options.env } : {}),
      // Without providers, createDetour builds every provider the config can reach.
      ...(options.providers ? { providers: options.providers } : {}),
      // R-CF-5: a gateway with nothing configured still serves OPENAI_API_KEY & co.
      discoverEnvCredentials: true,
    }));

  try {
    // The engine brings its lanes (canonical, same-wire, embeddings, count_tokens): the gateway only serves them.
    const { app, reloadEngine } = await buildGateway({
      detour,
      config,
      host,
      logger,
      ...(options.clock ? { clock: options.clock } : {}),
    });
    await app.listen({ host, port }).catch((error: unknown) => {
      throw (error as NodeJS.ErrnoException).code === "EADDRINUSE" ? new GatewayPortInUseError(host, port, error) : error;
    });
    const address = app.server.address();
    const boundPort = typeof address === "object" && address !== null ? address.port : port;
    const url = `http://${urlHost(host)}:${boundPort}`;
    logger.log("info", `Detour gateway listening on ${url}`);
    let closed = false;
    let current = config;
    let serving = detour;
    return {
      url,
      host,
      port: boundPort,
      app,
      get detour() {
        return serving;
      },
      // Not async: a refused reload throws before anything is swapped, a successful one swaps before returning.
      reloadEngine(engine) {
        const { config: next, changed } = keepRestartOnlySettings(current, engine.config);
        assertSafeBinding(host, next.gateway.auth);
        for (const path of changed) {
          logger.log("warn", `${path} changed in the config; it takes effect only after a restart (the running value is kept)`, {
            event: "config_reload_needs_restart",
            path,
          });
        }
        current = next;
        serving = engine.detour;
        return reloadEngine({ detour: engine.detour, config: next });
      },
      async close() {
        if (closed) return;
        closed = true;
        await app.close();
        if (ownsDetour && "close" in detour && typeof detour.close === "function") await detour.close();
      },
    };
  } catch (error) {
    if (ownsDetour && "close" in detour && typeof detour.close === "function") await detour.close();
    throw error;
  }
}
