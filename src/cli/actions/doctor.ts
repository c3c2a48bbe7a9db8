/**
 * What `detour doctor [--fix] [--from DIR]` does: config check, file modes (R-SB-4), store integrity (R-SB-3) and the
 * OpenClaw legacy import (R-AP-6). Idempotent: a second `--fix` finds nothing left to fix or import. Exit 0
 * when everything is healthy (or was fixed), 1 when a problem remains, 2 when the config is invalid.
 */
import type { Command } from "commander";
import { describeMissingEnvReference, missingEnvReferences, readEnvKnobs } from "../../config/index.js";
import { ConfigError } from "../../core/errors.js";
import { describeAllowedClients } from "../../gateway/request-guard.js";
import type { CliDeps } from "../cli-deps.js";
import { ReportedFailure } from "../cli-errors.js";
import { commandContext, loadCliConfig } from "../command-context.js";
import type { DoctorCheck, DoctorStatus } from "../doctor/doctor-check.js";
import { checkFileModes, recheckFileModes } from "../doctor/file-modes.js";
import { importLegacyState, type LegacyImportSummary } from "../doctor/legacy-import-check.js";
import { checkStores } from "../doctor/store-integrity.js";
import { CliUsageError, EXIT_BAD_INPUT, EXIT_RUNTIME_FAILURE, type CliOutput } from "../output.js";
import { createProgress } from "../progress.js";

export interface DoctorFlags {
  fix?: boolean;
  from?: string;
  agent: string;
  json?: boolean;
}

const MARK: Readonly<Record<DoctorStatus, string>> = { ok: "ok", fixed: "fixed", problem: "PROBLEM", skipped: "skipped" };

function colourMark(out: CliOutput, status: DoctorStatus): string {
  const mark = MARK[status];
  if (status === "ok") return out.colors.green(mark);
  if (status === "fixed") return out.colors.cyan(mark);
  if (status === "problem") return out.colors.red(mark);
  return out.colors.dim(mark);
}

function printReport(out: CliOutput, checks: readonly DoctorCheck[], legacy: LegacyImportSummary | undefined): void {
  out.table(
    ["check", "result", "detail"],
    checks.map((check) => [check.name, colourMark(out, check.status), check.detail]),
  );
  if (!legacy) return;
  out.line();
  out.line(`Legacy import from ${legacy.from} into agent ${legacy.agentId}:`);
  if (legacy.imported.length === 0) out.line("  imported: nothing new");
  for (const item of legacy.imported) out.line(`  imported ${item}`);
  for (const item of legacy.skipped) out.line(`  skipped  ${item}`);
}

export async function runDoctor(deps: CliDeps, command: Command, flags: DoctorFlags): Promise<void> {
  const context = commandContext(deps, command);
  const { out } = context;
  // The import writes to the store, so it only happens when the user asked for repairs.
  if (flags.from !== undefined && !flags.fix) {
    throw new CliUsageError("--from imports OpenClaw state into Detour's store and needs --fix: `detour doctor --fix --from DIR`.");
  }
  const progress = createProgress(deps.stderr, { quietOffTty: true, env: deps.env });
  const checks: DoctorCheck[] = [];
  const finish = (legacy: LegacyImportSummary | undefined, exitCode?: number) => {
    progress.done();
    const ok = !checks.some((check) => check.status === "problem");
    if (flags.json) {
      const legacyImport = legacy
        ? { from: legacy.from, agentId: legacy.agentId, imported: legacy.imported, skipped: legacy.skipped }
        : null;
      out.json({ ok, checks, legacyImport });
    } else printReport(out, checks, legacy);
    if (exitCode !== undefined || !ok) throw new ReportedFailure(exitCode ?? EXIT_RUNTIME_FAILURE);
  };

  progress.step("Checking the config…");
  let loaded;
  try {
    loaded = await loadCliConfig(context);
    checks.push({ name: "config", status: "ok", detail: loaded.path ?? "no config file; defaults apply" });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    checks.push({ name: "config", status: "problem", detail: error.message.replace(/\n\s*/g, " ") });
    out.error(`detour: ${error.message}`);
    return finish(undefined, EXIT_BAD_INPUT);
  }

  const missingEnv = missingEnvReferences(loaded.config, deps.env);
  checks.push(
    missingEnv.length === 0
      ? { name: "key variables", status: "ok", detail: "every auth.profiles keyRef.env variable is set" }
      : { name: "key variables", status: "problem", detail: missingEnv.map(describeMissingEnvReference).join("; ") },
  );

  // Not a problem either way: says which Host names and browser origins the gateway will answer.
  const allowed = describeAllowedClients(loaded.config.gateway, loaded.config.gateway.port);
  checks.push({ name: "gateway hosts", status: "ok", detail: allowed.hosts });
  checks.push({ name: "gateway origins", status: "ok", detail: allowed.origins });

  const knobs = readEnvKnobs(deps.env, { cwd: deps.cwd });
  progress.step("Checking file modes…");
  checks.push(...checkFileModes(knobs.detourHome, flags.fix === true));

  const location = {
    config: loaded.config,
    detourHome: knobs.detourHome,
    env: deps.env,
    ...(knobs.secretKey !== undefined ? { secretKey: knobs.secretKey } : {}),
  };
  let legacy: LegacyImportSummary | undefined;
  if (flags.from !== undefined) {
    progress.step(`Importing OpenClaw state from ${flags.from}…`);
    legacy = await importLegacyState({ ...location, from: flags.from, agentId: flags.agent, cwd: deps.cwd });
    checks.push(legacy.check);
  }

  progress.step("Checking stores…");
  checks.push(...(await checkStores(location)));
  checks.splice(0, checks.length, ...recheckFileModes(checks));
  finish(legacy);
}
