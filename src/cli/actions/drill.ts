/**
 * What `detour drill --list` and `detour drill NAME [--json] [--max-failed-percent N]` do (R-OB-6): run a
 * built-in incident against the config (the root `--config`, else the usual lookup) through the replay
 * engine and say what users would have seen, the verdict and, when it went badly, the change that helps.
 */
import { basename } from "node:path";
import type { Command } from "commander";
import { DRILLS, DrillTargetError, findDrill, runDrill, type DrillOutcome } from "../../engine/replay/index.js";
import type { CliDeps } from "../cli-deps.js";
import { ReportedFailure } from "../cli-errors.js";
import { commandContext, loadCliConfig, type CommandContext } from "../command-context.js";
import { CliUsageError, EXIT_RUNTIME_FAILURE } from "../output.js";
import { REPORT_ROWS } from "../views/replay-html.js";
import { writeHtmlReport } from "./replay.js";

export interface DrillFlags {
  list?: boolean;
  json?: boolean;
  html?: string;
  maxFailedPercent?: number;
}

function listDrills(context: CommandContext, json: boolean | undefined): void {
  if (json) {
    context.out.json({ drills: DRILLS.map(({ name, title, description }) => ({ name, title, description })) });
    return;
  }
  context.out.table(
    ["drill", "what happens"],
    DRILLS.map((drill) => [drill.name, drill.description]),
  );
  context.out.line("Run one with `detour drill <name>`, or every one with `detour drill all`.");
}

function drillJson(outcome: DrillOutcome) {
  return {
    ...outcome.report,
    drill: outcome.drill,
    target: outcome.target,
    verdict: outcome.verdict,
    failedPercent: outcome.failedPercent,
    advice: outcome.advice.map((advice) => advice.text),
  };
}

function printOutcome(context: CommandContext, outcome: DrillOutcome): void {
  const drill = findDrill(outcome.drill)!;
  const { colors } = context.out;
  context.out.line(`Drill ${drill.name} (${drill.title}) against ${outcome.report.name}, primary ${outcome.target}:`);
  context.out.line(`  ${drill.description}`);
  context.out.table(
    ["", outcome.report.name],
    REPORT_ROWS.map(([label, cell]) => [label, cell(outcome.report)]),
  );
  const paint = outcome.verdict === "held" ? colors.green : outcome.verdict === "degraded" ? colors.yellow : colors.red;
  context.out.line(`Verdict: ${paint(outcome.verdict)} — ${outcome.failedPercent} % of runs failed.`);
  for (const advice of outcome.advice) context.out.line(`  What would have helped: ${advice.text}`);
}

export async function drillCommand(deps: CliDeps, command: Command, name: string | undefined, options: DrillFlags): Promise<void> {
  const context = commandContext(deps, command);
  if (options.list) {
    listDrills(context, options.json);
    return;
  }
  if (name === undefined)
    throw new CliUsageError("Name a drill (`detour drill --list` shows them), or run every one with `detour drill all`.");
  const drills = name === "all" ? DRILLS : [findDrill(name)];
  if (drills[0] === undefined) {
    throw new CliUsageError(`No drill named "${name}". Built-in drills: ${DRILLS.map((drill) => drill.name).join(", ")}.`);
  }
  const loaded = await loadCliConfig(context);
  const configName = loaded.path !== undefined ? basename(loaded.path) : "defaults (no config file)";
  const outcomes: DrillOutcome[] = [];
  try {
    for (const drill of drills) outcomes.push(await runDrill(drill!, loaded.config, configName));
  } catch (error) {
    if (error instanceof DrillTargetError) throw new CliUsageError(error.message);
    throw error;
  }
  if (options.html !== undefined) {
    // The drills' own traces are the replayed runs: one column per drill.
    const notes = outcomes.map((outcome) => `${outcome.drill}: ${outcome.verdict}, ${outcome.failedPercent} % failed`);
    await writeHtmlReport(
      options.html,
      `Drill${outcomes.length > 1 ? "s" : ""} against ${configName}`,
      outcomes.map((outcome) => ({ report: { ...outcome.report, name: outcome.drill }, traces: outcome.traces })),
      notes,
    );
  }
  if (options.json) context.out.json(outcomes.length === 1 ? drillJson(outcomes[0]!) : { drills: outcomes.map(drillJson) });
  else
    outcomes.forEach((outcome, index) => {
      if (index > 0) context.out.line();
      printOutcome(context, outcome);
    });
  const limit = options.maxFailedPercent;
  const over = limit === undefined ? [] : outcomes.filter((outcome) => outcome.failedPercent > limit);
  if (over.length > 0) {
    context.out.error(
      `detour: ${over.map((outcome) => `${outcome.drill}: ${outcome.failedPercent} % failed`).join("; ")} — more than --max-failed-percent ${limit}.`,
    );
    throw new ReportedFailure(EXIT_RUNTIME_FAILURE);
  }
}
