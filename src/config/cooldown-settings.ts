/**
 * `auth.cooldowns` (SPEC R-CF-3). A bad cooldown number must not stop the engine: it falls back to its
 * default with a warning. That happens before schema validation, so the schema only ever sees valid
 * numbers or absent keys (and applies the defaults itself).
 */
import type { CooldownSettings } from "../core/types.js";
import { formatConfigPath } from "./config-path.js";
import { DEFAULT_COOLDOWNS } from "./defaults.js";
import type { DetourConfig } from "./schema.js";

type NumberRule = "positive" | "positiveInteger" | "nonNegative";

/** The rule of each scalar cooldown key. Rotations are counts; overloadedBackoffMs defaults to 0. */
const SCALAR_RULES = {
  billingBackoffHours: "positive",
  billingMaxHours: "positive",
  authPermanentBackoffMinutes: "positive",
  authPermanentMaxMinutes: "positive",
  failureWindowHours: "positive",
  overloadedProfileRotations: "positiveInteger",
  overloadedBackoffMs: "nonNegative",
  rateLimitedProfileRotations: "positiveInteger",
} as const satisfies Partial<Record<keyof CooldownSettings, NumberRule>>;

const LADDER_KEYS = ["ladderSeconds", "timeoutLadderSeconds"] as const;
const COOLDOWNS_PATH = ["auth", "cooldowns"] as const;

const RULE_TEXT: Record<NumberRule, string> = {
  positive: "a positive number",
  positiveInteger: "a positive whole number",
  nonNegative: "a number of 0 or more",
};

function satisfies(value: unknown, rule: NumberRule): boolean {
  if (typeof value !== "number" || !Number.isFinite(value)) return false;
  if (rule === "nonNegative") return value >= 0;
  if (rule === "positiveInteger") return Number.isInteger(value) && value > 0;
  return value > 0;
}

function describe(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fallbackWarning(key: readonly PropertyKey[], expected: string, got: unknown, fallback: string): string {
  return `${formatConfigPath([...COOLDOWNS_PATH, ...key])}: expected ${expected}, got ${describe(got)}; using ${fallback}`;
}

/**
 * Returns the raw config with invalid `auth.cooldowns` values removed (so their defaults apply) and
 * one warning per removed value. The input is not modified.
 */
export function sanitizeCooldowns(raw: unknown): { value: unknown; warnings: string[] } {
  const auth = isRecord(raw) ? raw.auth : undefined;
  const cooldowns = isRecord(auth) ? auth.cooldowns : undefined;
  if (!isRecord(raw) || !isRecord(auth) || !isRecord(cooldowns)) return { value: raw, warnings: [] };

  const warnings: string[] = [];
  const cleaned: Record<string, unknown> = { ...cooldowns };

  for (const [key, rule] of Object.entries(SCALAR_RULES) as [keyof typeof SCALAR_RULES, NumberRule][]) {
    if (!Object.hasOwn(cleaned, key) || satisfies(cleaned[key], rule)) continue;
    warnings.push(fallbackWarning([key], RULE_TEXT[rule], cleaned[key], `the default ${DEFAULT_COOLDOWNS[key]}`));
    delete cleaned[key];
  }

  for (const key of LADDER_KEYS) {
    if (!Object.hasOwn(cleaned, key)) continue;
    const ladder = cleaned[key];
    const valid = Array.isArray(ladder) && ladder.length > 0 && ladder.every((step) => satisfies(step, "positive"));
    if (valid) continue;
    const fallback = `the default [${DEFAULT_COOLDOWNS[key].join(", ")}]`;
    warnings.push(fallbackWarning([key], "a non-empty list of positive numbers", ladder, fallback));
    delete cleaned[key];
  }

  const byProvider = cleaned.billingBackoffHoursByProvider;
  if (byProvider !== undefined) {
    if (!isRecord(byProvider)) {
      const key = ["billingBackoffHoursByProvider"];
      warnings.push(fallbackWarning(key, "an object of provider → hours", byProvider, "no per-provider values"));
      delete cleaned.billingBackoffHoursByProvider;
    } else {
      const kept: Record<string, unknown> = {};
      for (const [provider, hours] of Object.entries(byProvider)) {
        if (satisfies(hours, "positive")) kept[provider] = hours;
        else {
          const key = ["billingBackoffHoursByProvider", provider];
          warnings.push(fallbackWarning(key, "a positive number", hours, "billingBackoffHours"));
        }
      }
      cleaned.billingBackoffHoursByProvider = kept;
    }
  }

  return { value: { ...raw, auth: { ...auth, cooldowns: cleaned } }, warnings };
}

/** The cooldown settings the core's usage-stats math takes (every default already applied by parsing). */
export function resolveCooldownSettings(config: DetourConfig): CooldownSettings {
  const cooldowns = config.auth.cooldowns;
  return Object.freeze({
    billingBackoffHours: cooldowns.billingBackoffHours,
    billingBackoffHoursByProvider: Object.freeze({ ...cooldowns.billingBackoffHoursByProvider }),
    billingMaxHours: cooldowns.billingMaxHours,
    authPermanentBackoffMinutes: cooldowns.authPermanentBackoffMinutes,
    authPermanentMaxMinutes: cooldowns.authPermanentMaxMinutes,
    failureWindowHours: cooldowns.failureWindowHours,
    overloadedProfileRotations: cooldowns.overloadedProfileRotations,
    overloadedBackoffMs: cooldowns.overloadedBackoffMs,
    rateLimitedProfileRotations: cooldowns.rateLimitedProfileRotations,
    ladderSeconds: Object.freeze([...cooldowns.ladderSeconds]),
    timeoutLadderSeconds: Object.freeze([...cooldowns.timeoutLadderSeconds]),
  });
}
