/**
 * Validation happens here, once (SPEC R-CF-2): invalid cooldown numbers fall back with a warning,
 * everything else invalid is collected into one ConfigError, unknown keys become warnings (a typo of a
 * known key is an error, see near-miss-keys.ts), bare model
 * names are read as their `provider/model` (with a note), and the result is deep-frozen.
 */
import { ConfigError } from "../core/errors.js";
import { resolveBareModelNames } from "./bare-model-names.js";
import { configIssuesFromZod } from "./config-error.js";
import { formatConfigPath } from "./config-path.js";
import { sanitizeCooldowns } from "./cooldown-settings.js";
import { deepFreeze } from "./deep-freeze.js";
import { DEFAULT_AGENT_ID } from "./defaults.js";
import { DetourConfigSchema, type DetourConfig } from "./schema.js";
import { findNearMissKeys, formatNearMissPath, nearMissMessage } from "./near-miss-keys.js";
import { unknownKeyWarnings } from "./unknown-keys.js";
import { dropUnsupportedProviderApis } from "./unsupported-apis.js";

export interface ParsedConfig {
  config: DetourConfig;
  warnings: string[];
}

/**
 * @param raw the file's parsed JSON5 (undefined means "no file": every default)
 * @param source where it came from, for the error message
 * @throws ConfigError listing every invalid path
 */
export function parseConfig(raw: unknown, source?: string): ParsedConfig {
  const supported = dropUnsupportedProviderApis(raw === undefined ? {} : raw);
  const sanitized = sanitizeCooldowns(supported.value);
  const result = DetourConfigSchema.safeParse(sanitized.value, { reportInput: true });
  // A typo of a known key would silently switch its feature off, so it is refused like an invalid value.
  const nearMisses = findNearMissKeys(sanitized.value);
  const typos = nearMisses
    .filter((nearMiss) => !nearMiss.openClawKey)
    .map((nearMiss) => ({ path: formatNearMissPath(nearMiss), message: nearMissMessage(nearMiss) }));
  if (!result.success || typos.length > 0) {
    throw new ConfigError([...(result.success ? [] : configIssuesFromZod(result.error.issues)), ...typos], source);
  }
  const hints = new Map(nearMisses.map((nearMiss) => [formatNearMissPath(nearMiss), nearMissMessage(nearMiss)]));
  const unknownKeys = unknownKeyWarnings(sanitized.value, result.data).map((warning) => {
    const path = warning.slice(0, warning.lastIndexOf(": unknown key"));
    const hint = hints.get(path);
    return hint === undefined ? warning : `${path}: ${hint}`;
  });

  const warnings = [
    ...supported.warnings,
    ...sanitized.warnings,
    ...unknownKeys,
    ...consistencyWarnings(result.data),
    ...resolveBareModelNames(result.data),
  ];
  return { config: deepFreeze(result.data) as DetourConfig, warnings };
}

/** Legal but probably unintended: worth a warning, not a refusal to start. */
function consistencyWarnings(config: DetourConfig): string[] {
  const warnings: string[] = [];
  for (const [profileId, profile] of Object.entries(config.auth.profiles)) {
    if (!profileId.startsWith(`${profile.provider}:`)) {
      const path = formatConfigPath(["auth", "profiles", profileId]);
      warnings.push(`${path}: profile ids are "<provider>:<name>"; expected it to start with "${profile.provider}:"`);
    }
  }
  const agentIds = new Set([DEFAULT_AGENT_ID, ...config.agents.list.map((agent) => agent.id)]);
  config.cron.jobs.forEach((job, index) => {
    if (job.agentId !== undefined && !agentIds.has(job.agentId)) {
      const path = formatConfigPath(["cron", "jobs", index, "agentId"]);
      warnings.push(`${path}: no agent "${job.agentId}" in agents.list; the job runs with the default settings`);
    }
  });
  return warnings;
}
