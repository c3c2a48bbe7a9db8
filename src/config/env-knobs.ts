/**
 * Environment knobs (SPEC R-CF-4), read once at start. A pure function of the env object the caller
 * passes in: nothing here reads process.env, so tests and embedders control every input.
 */
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { DEFAULT_HOME_DIR_NAME } from "./defaults.js";

/** Same union as the Logger port's LogLevel; config may not import ports (DESIGN §1). */
export type LogLevel = "debug" | "info" | "warn" | "error";

export type EnvSource = Readonly<Record<string, string | undefined>>;

export interface EnvKnobs {
  /** R-FB-2: the skip-cache TTL in ms; undefined = skip cache off. */
  fallbackSkipTtlMs?: number;
  /** R-RA-1: the SDK retry-after cap in seconds; null = no cap. */
  sdkRetryMaxWaitSeconds: number | null;
  /** Absolute DETOUR_HOME (default ~/.detour). */
  detourHome: string;
  /** DETOUR_CONFIG as given (resolved against the working directory by loadConfig). */
  configPath?: string;
  /**
   * DETOUR_SECRET_KEY (R-SB-4), passed through. Not enumerable, so logging or serialising the knobs
   * never prints it (R-OB-2).
   */
  readonly secretKey?: string;
  logLevel: LogLevel;
  /** Knobs that were set to something unusable, and what was used instead. */
  warnings: string[];
}

export const SKIP_TTL_MIN_MS = 1_000;
export const SKIP_TTL_MAX_MS = 600_000;
export const DEFAULT_SDK_RETRY_MAX_WAIT_SECONDS = 60;
const NO_CAP_WORDS = new Set(["0", "false", "off", "none", "disabled"]);
const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error"];
const DEFAULT_LOG_LEVEL: LogLevel = "info";

interface KnobValue<T> {
  value: T;
  warning?: string;
}

function nonBlank(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * Reads an `OPENCLAW_…` knob, preferring its `DETOUR_…` twin when that is set. A blank twin counts as
 * unset: an empty `export DETOUR_X=` left over in a shell profile should not silence the other one.
 */
function readTwinKnob(env: EnvSource, openclawName: string): { name: string; raw: string | undefined } {
  const twinName = `DETOUR_${openclawName.slice("OPENCLAW_".length)}`;
  if (nonBlank(env[twinName]) !== undefined) return { name: twinName, raw: env[twinName] };
  return { name: openclawName, raw: env[openclawName] };
}

/** R-FB-2: unset, empty, 0, negative or not a plain integer → off; else clamped to [1 000, 600 000]. */
export function parseFallbackSkipTtlMs(raw: string | undefined, name = "OPENCLAW_FALLBACK_SKIP_TTL_MS"): KnobValue<number | undefined> {
  const text = nonBlank(raw);
  if (text === undefined) return { value: undefined };
  if (!/^-?\d+$/.test(text)) {
    return { value: undefined, warning: `${name}: expected a whole number of milliseconds; the skip cache stays off` };
  }
  const ms = Number(text);
  if (ms <= 0) return { value: undefined };
  const clamped = Math.min(SKIP_TTL_MAX_MS, Math.max(SKIP_TTL_MIN_MS, ms));
  return clamped === ms
    ? { value: ms }
    : { value: clamped, warning: `${name}: ${text} is outside [${SKIP_TTL_MIN_MS}, ${SKIP_TTL_MAX_MS}]; using ${clamped}` };
}

/** R-RA-1: unset/blank → 60; 0|false|off|none|disabled → no cap (null); not a plain positive decimal → 60. */
export function parseSdkRetryMaxWaitSeconds(
  raw: string | undefined,
  name = "OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS",
): KnobValue<number | null> {
  const text = nonBlank(raw);
  if (text === undefined) return { value: DEFAULT_SDK_RETRY_MAX_WAIT_SECONDS };
  if (NO_CAP_WORDS.has(text.toLowerCase())) return { value: null };
  const seconds = Number(text);
  if (/^\d+(\.\d+)?$/.test(text) && seconds > 0) return { value: seconds };
  return {
    value: DEFAULT_SDK_RETRY_MAX_WAIT_SECONDS,
    warning:
      `${name}: expected a positive number of seconds or one of 0, false, off, none, disabled; ` +
      `using ${DEFAULT_SDK_RETRY_MAX_WAIT_SECONDS}`,
  };
}

export function parseLogLevel(raw: string | undefined): KnobValue<LogLevel> {
  const text = nonBlank(raw)?.toLowerCase();
  if (text === undefined) return { value: DEFAULT_LOG_LEVEL };
  const level = LOG_LEVELS.find((candidate) => candidate === text);
  if (level) return { value: level };
  return {
    value: DEFAULT_LOG_LEVEL,
    warning: `DETOUR_LOG_LEVEL: expected one of ${LOG_LEVELS.join(", ")}; using ${DEFAULT_LOG_LEVEL}`,
  };
}

/** DETOUR_HOME, absolute; `~` is expanded because .env files and service units do not expand it. */
export function resolveDetourHome(env: EnvSource, options: { cwd?: string; homeDir?: string } = {}): string {
  const userHome = options.homeDir ?? nonBlank(env.HOME) ?? nonBlank(env.USERPROFILE) ?? homedir();
  const configured = nonBlank(env.DETOUR_HOME);
  if (configured === undefined) return join(userHome, DEFAULT_HOME_DIR_NAME);
  if (configured === "~") return userHome;
  if (configured.startsWith("~/")) return join(userHome, configured.slice(2));
  return isAbsolute(configured) ? resolve(configured) : resolve(options.cwd ?? process.cwd(), configured);
}

export function readEnvKnobs(env: EnvSource, options: { cwd?: string; homeDir?: string } = {}): EnvKnobs {
  const ttlKnob = readTwinKnob(env, "OPENCLAW_FALLBACK_SKIP_TTL_MS");
  const capKnob = readTwinKnob(env, "OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS");
  const ttl = parseFallbackSkipTtlMs(ttlKnob.raw, ttlKnob.name);
  const cap = parseSdkRetryMaxWaitSeconds(capKnob.raw, capKnob.name);
  const logLevel = parseLogLevel(env.DETOUR_LOG_LEVEL);
  const configPath = nonBlank(env.DETOUR_CONFIG);

  const knobs: EnvKnobs = {
    ...(ttl.value !== undefined ? { fallbackSkipTtlMs: ttl.value } : {}),
    sdkRetryMaxWaitSeconds: cap.value,
    detourHome: resolveDetourHome(env, options),
    ...(configPath !== undefined ? { configPath } : {}),
    logLevel: logLevel.value,
    warnings: [ttl.warning, cap.warning, logLevel.warning].filter((text): text is string => text !== undefined),
  };
  // The key itself is used as given (no trimming): it is key material, not a word.
  const secretKey = env.DETOUR_SECRET_KEY;
  if (secretKey !== undefined && secretKey !== "") {
    Object.defineProperty(knobs, "secretKey", { value: secretKey, enumerable: false });
  }
  return knobs;
}
