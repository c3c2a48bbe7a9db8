/** What `detour config check | schema` do (R-CF-2). */
import type { Command } from "commander";
import { describeMissingEnvReference, missingEnvReferences, toJsonSchema } from "../../config/index.js";
import { ConfigError } from "../../core/errors.js";
import type { CliDeps } from "../cli-deps.js";
import { ReportedFailure } from "../cli-errors.js";
import { commandContext, loadCliConfig } from "../command-context.js";
import { EXIT_BAD_INPUT } from "../output.js";

export async function checkConfig(deps: CliDeps, command: Command, options: { json?: boolean }): Promise<void> {
  const context = commandContext(deps, command);
  try {
    const loaded = await loadCliConfig(context);
    // R-AP-2: a keyRef whose variable is not set here leaves its profile without a key.
    const missing = missingEnvReferences(loaded.config, deps.env).map(describeMissingEnvReference);
    for (const warning of missing) context.out.error(`detour: warning: ${warning}`);
    const warnings = [...loaded.warnings, ...missing];
    if (options.json) {
      context.out.json({ ok: true, path: loaded.path ?? null, warnings });
      return;
    }
    context.out.line(
      loaded.path
        ? `Config OK: ${loaded.path}${warnings.length > 0 ? ` (${warnings.length} warning(s) above)` : ""}`
        : "No config file found (./detour.json5, $DETOUR_HOME/detour.json5): every default applies.",
    );
  } catch (error) {
    if (!(options.json && error instanceof ConfigError)) throw error;
    context.out.json({ ok: false, path: error.source ?? null, issues: error.issues });
    context.out.error(`detour: ${error.message}`);
    throw new ReportedFailure(EXIT_BAD_INPUT);
  }
}

export function printSchema(deps: CliDeps): void {
  deps.stdout.write(`${JSON.stringify(toJsonSchema(), null, 2)}\n`);
}
