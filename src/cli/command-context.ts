/**
 * What most commands need before doing their job: the global `--config`, the loaded config (its warnings on
 * stderr, an invalid file → exit 2 through ConfigError), a Detour over the agent's store, and the output.
 */
import type { Command } from "commander";
import type { DetourEngine } from "../engine/index.js";
import { loadConfig, readEnvKnobs, type DetourConfig, type LoadedConfig } from "../config/index.js";
import type { Logger, LogLevel } from "../ports/events.js";
import type { CliDeps } from "./cli-deps.js";
import { createOutput, type CliOutput } from "./output.js";
import { createStderrLogger } from "./stderr-logger.js";

export interface GlobalOptions {
  config?: string;
}

export function globalOptions(command: Command): GlobalOptions {
  const options = command.optsWithGlobals<GlobalOptions>();
  return options.config !== undefined ? { config: options.config } : {};
}

export interface CommandContext {
  deps: CliDeps;
  out: CliOutput;
  logger: Logger;
  configPath?: string;
}

/**
 * `defaultLogLevel` applies when DETOUR_LOG_LEVEL is not set: one-shot commands keep stderr for their own
 * messages (the notice, errors) and log only warnings unless asked.
 */
export function commandContext(deps: CliDeps, command: Command, defaultLogLevel: LogLevel = "warn"): CommandContext {
  const { config } = globalOptions(command);
  const level = deps.env.DETOUR_LOG_LEVEL?.trim() ? readEnvKnobs(deps.env, { cwd: deps.cwd }).logLevel : defaultLogLevel;
  return {
    deps,
    out: createOutput(deps.stdout, deps.stderr, deps.env),
    logger: createStderrLogger(deps.stderr, level),
    ...(config !== undefined ? { configPath: config } : {}),
  };
}

/** Loads the config as R-CF-1 says; warnings (unknown keys, clamped numbers) go to stderr. */
export async function loadCliConfig(context: CommandContext): Promise<LoadedConfig> {
  const loaded = await loadConfig({
    ...(context.configPath !== undefined ? { configPath: context.configPath } : {}),
    env: context.deps.env,
    cwd: context.deps.cwd,
  });
  for (const warning of loaded.warnings) context.out.error(`detour: warning: ${warning}`);
  return loaded;
}

export interface OpenedDetour {
  detour: DetourEngine;
  config: DetourConfig;
  configFile?: string;
}

/** Runs `use` with a Detour over the configured state backend and always closes it (the store's file handles). */
export async function withDetour<T>(
  context: CommandContext,
  options: {
    discoverEnvCredentials?: boolean;
    /** R-CF-5 in full (`detour run`): the engine also looks for a local Ollama, or fails saying how to add a key. */
    discoverCredentials?: { agentId?: string };
    config?: LoadedConfig;
    readOnly?: boolean;
  },
  use: (opened: OpenedDetour) => Promise<T>,
): Promise<T> {
  const loaded = options.config ?? (await loadCliConfig(context));
  // The engine is loaded when a command opens one: `detour --help` and the demo's registration stay light.
  const { createDetour } = await import("../engine/index.js");
  // Read-only commands get stores that never create state; the engine closes whatever it opened.
  const detour = await createDetour({
    config: loaded.config,
    env: context.deps.env,
    logger: context.logger,
    discoverEnvCredentials: options.discoverEnvCredentials ?? false,
    ...(options.discoverCredentials ? { discoverCredentials: options.discoverCredentials } : {}),
    ...(options.readOnly ? { readOnly: true } : {}),
  });
  try {
    return await use({ detour, config: loaded.config, ...(loaded.path !== undefined ? { configFile: loaded.path } : {}) });
  } finally {
    await detour.close();
  }
}
