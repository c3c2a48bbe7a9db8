/**
 * The doctor's R-AP-6 step: imports OpenClaw's credential files (read-only) into the agent's store and turns
 * the import report into doctor lines. Idempotency is the importer's: it never overwrites what the store
 * already holds, so a second run reports everything as skipped and nothing as imported.
 */
import { existsSync, statSync } from "node:fs";
import { resolve, sep } from "node:path";
import { importLegacyOpenClaw, type LegacyImportReport } from "../../engine/index.js";
import { CliUsageError } from "../output.js";
import type { DoctorCheck } from "./doctor-check.js";
import { openAgentStore, type StoreLocation } from "./store-integrity.js";

export interface LegacyImportSummary {
  from: string;
  agentId: string;
  /** `profile openai:default (from agents/main/agent/auth-profiles.json)` — ids and paths relative to `from`, never a secret. */
  imported: string[];
  skipped: string[];
  report: LegacyImportReport;
  check: DoctorCheck;
}

export async function importLegacyState(
  input: StoreLocation & { from: string; agentId: string; cwd: string },
): Promise<LegacyImportSummary> {
  const from = resolve(input.cwd, input.from);
  if (!existsSync(from) || !statSync(from).isDirectory()) {
    throw new CliUsageError(`--from ${input.from}: no such directory. Point it at the OpenClaw state directory (usually ~/.openclaw).`);
  }
  const store = await openAgentStore(input, input.agentId);
  let report: LegacyImportReport;
  try {
    report = await importLegacyOpenClaw({ openclawDir: from, agentId: input.agentId, store });
  } finally {
    await store.close();
  }
  // Paths inside the --from directory read relative to it: the report names the directory once.
  const inside = (text: string) => text.split(`${from}${sep}`).join("");
  const imported = report.imported.map((item) => `${item.kind} ${item.id} (from ${inside(item.from)})`);
  const skipped = report.skipped.map((item) => `${item.kind} ${item.id} (from ${inside(item.from)}): ${inside(item.why)}`);
  const unreadable = report.sources.filter((source) => source.error !== undefined);
  const found = report.sources.filter((source) => source.found);
  let check: DoctorCheck;
  if (unreadable.length > 0) {
    check = { name: "legacy import", status: "problem", detail: unreadable.map((source) => `${source.path}: ${source.error}`).join("; ") };
  } else if (found.length === 0) {
    check = { name: "legacy import", status: "problem", detail: `no OpenClaw credential files found under ${from}` };
  } else {
    check = {
      name: "legacy import",
      status: imported.length > 0 ? "fixed" : "ok",
      detail: `${imported.length} item(s) imported, ${skipped.length} skipped from ${found.length} file(s)`,
    };
  }
  return { from, agentId: input.agentId, imported, skipped, report, check };
}
