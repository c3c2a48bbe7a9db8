/**
 * Bare model names in the config (`fallbacks: ["claude-sonnet-4"]`) are read as the one `provider/model`
 * they name (R-GW-3, R-CH-1), once, right after validation — so every later reader (the chain, heartbeats,
 * cron, status, metrics) sees a `provider/model` and no bare name can fall through to the primary's
 * provider. Aliases stay as written: they resolve at run time like OpenClaw's. Validation has already
 * refused ambiguous and unknown names (cross-checks.ts); each name read here is told in a warning, so the
 * operator sees what it was taken to mean (a catalogue update could change it) and can write it out.
 */
import { formatConfigPath } from "./config-path.js";
import { aliasTarget, modelNaming, resolveModelNameWith } from "./model-names.js";
import { visitModelRefs } from "./model-ref-paths.js";
import { isAliasWord } from "./model-ref-syntax.js";
import { modelAliases } from "./agent-settings.js";
import type { DetourConfig } from "./schema.js";

/** Rewrites bare names of a parsed, not yet frozen config in place; returns one note per name read. */
export function resolveBareModelNames(config: DetourConfig): string[] {
  const aliases = modelAliases(config);
  const naming = modelNaming(config, aliases);
  const notes: string[] = [];
  visitModelRefs(config, (value, path, replace) => {
    if (typeof value !== "string" || !isAliasWord(value) || aliasTarget(aliases, value) !== undefined) return;
    const resolution = resolveModelNameWith(naming, value);
    // Unreachable after validation; left as written rather than guessed.
    if (!resolution.ok) return;
    replace(resolution.ref);
    notes.push(`${formatConfigPath(path)}: bare model name "${value}" read as "${resolution.ref}"; write it so to keep that meaning`);
  });
  return notes;
}
