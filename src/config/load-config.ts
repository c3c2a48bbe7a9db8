/**
 * Finds, reads and parses detour.json5 (SPEC R-CF-1):
 * explicit path or DETOUR_CONFIG > ./detour.json5 > $DETOUR_HOME/detour.json5 > no file (all defaults).
 * A file someone named explicitly must exist; the two looked-up locations may be absent.
 */
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import JSON5 from "json5";
import { loadRefreshedCatalogue } from "../catalogue/model-catalogue.js";
import { configFileNotFound, configFileSyntaxError, configFileUnreadable } from "./config-error.js";
import { CONFIG_FILE_NAME } from "./defaults.js";
import { readEnvKnobs, type EnvSource } from "./env-knobs.js";
import { parseConfig } from "./parse-config.js";
import type { DetourConfig } from "./schema.js";

export interface LoadConfigOptions {
  /** `--config PATH`; wins over DETOUR_CONFIG. Relative paths are resolved against `cwd`. */
  configPath?: string;
  /** Defaults to process.env. */
  env?: EnvSource;
  /** Defaults to process.cwd(). */
  cwd?: string;
}

export interface LoadedConfig {
  config: DetourConfig;
  warnings: string[];
  /** The file that was loaded; absent when none was found and every default applies. */
  path?: string;
}

interface Candidate {
  path: string;
  /** Who named the file, when it was named explicitly (then it must exist). */
  namedBy?: string;
}

export function configFileCandidates(options: LoadConfigOptions = {}): Candidate[] {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  if (options.configPath !== undefined && options.configPath.trim() !== "") {
    return [{ path: resolve(cwd, options.configPath), namedBy: "--config" }];
  }
  const knobs = readEnvKnobs(env, { cwd });
  if (knobs.configPath !== undefined) {
    return [{ path: resolve(cwd, knobs.configPath), namedBy: "DETOUR_CONFIG" }];
  }
  return [{ path: join(cwd, CONFIG_FILE_NAME) }, { path: join(knobs.detourHome, CONFIG_FILE_NAME) }];
}

async function readIfPresent(candidate: Candidate): Promise<string | undefined> {
  try {
    return await readFile(candidate.path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw configFileUnreadable(candidate.path, error);
    if (candidate.namedBy !== undefined) throw configFileNotFound(candidate.path, candidate.namedBy);
    return undefined;
  }
}

function parseJson5(text: string, path: string): unknown {
  // Editors on Windows may write a byte-order mark; an empty file is a config that sets nothing.
  const body = text.replace(/^\uFEFF/, "");
  if (body.trim() === "") return {};
  try {
    return JSON5.parse(body);
  } catch (error) {
    throw configFileSyntaxError(path, error);
  }
}

/** @throws ConfigError (ConfigFileError for a missing, unreadable or malformed file) */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  // Model names in the file are resolved against the catalogue, so a refreshed one is put in use first.
  const catalogueWarnings = useCatalogueOfHome(options);
  for (const candidate of configFileCandidates(options)) {
    const text = await readIfPresent(candidate);
    if (text === undefined) continue;
    const { config, warnings } = parseConfig(parseJson5(text, candidate.path), candidate.path);
    return { config, warnings: [...catalogueWarnings, ...warnings], path: candidate.path };
  }
  const defaults = parseConfig(undefined);
  return { ...defaults, warnings: [...catalogueWarnings, ...defaults.warnings] };
}

/** Puts `$DETOUR_HOME`'s refreshed model catalogue in use; a cache that cannot be read is a warning. */
export function useCatalogueOfHome(options: Pick<LoadConfigOptions, "env" | "cwd"> = {}): string[] {
  const knobs = readEnvKnobs(options.env ?? process.env, { cwd: options.cwd ?? process.cwd() });
  const read = loadRefreshedCatalogue(knobs.detourHome);
  return read.state === "unreadable"
    ? [`the refreshed model catalogue is not used: ${read.problem}; the bundled catalogue answers instead`]
    : [];
}
