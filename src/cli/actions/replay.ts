/**
 * What `detour replay FILE [--config B …] [--json] [--html FILE]` does (R-OB-5): reads a trace file written
 * by `detour trace export`, replays it against the recording's own config and each `--config` given after the
 * command, and prints the configs side by side (or `{ "configs": [...] }` with `--json`).
 *
 * The recording's config is the one Detour itself would use: the root `--config` written before the command
 * (`detour --config A.json5 replay …`), else the usual lookup (./detour.json5, $DETOUR_HOME/detour.json5).
 * When that lookup finds no file, the first `--config` after the command is taken as the recording's.
 */
import { readFile, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import type { Command } from "commander";
import { loadConfig, type LoadedConfig } from "../../config/index.js";
import { parseRunTraceLine, TraceLineError, type RunTraceV1 } from "../../core/run-trace.js";
import { replayTraces, type ReplayConfigReport, type ReplayResult } from "../../engine/replay/index.js";
import type { CliDeps } from "../cli-deps.js";
import { commandContext, type CommandContext } from "../command-context.js";
import { CliUsageError } from "../output.js";
import { REPORT_ROWS, renderReplayHtml } from "../views/replay-html.js";

export interface ReplayFlags {
  json?: boolean;
  html?: string;
}

/** `--config` values before the command name (the root's, the last one wins) and after it, in order. */
export function configFlagsAround(argv: readonly string[], commandName: string): { before?: string; after: string[] } {
  let before: string | undefined;
  const after: string[] = [];
  let seenCommand = false;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    let value: string | undefined;
    if (argument === "--config") value = argv[(index += 1)];
    else if (argument.startsWith("--config=")) value = argument.slice("--config=".length);
    else if (!seenCommand && argument === commandName) seenCommand = true;
    if (value === undefined) continue;
    if (seenCommand) after.push(value);
    else before = value;
  }
  return { ...(before !== undefined ? { before } : {}), after };
}

function rootArgs(command: Command): string[] {
  let root = command;
  while (root.parent) root = root.parent;
  return (root as unknown as { rawArgs?: string[] }).rawArgs ?? [];
}

export async function readTraceFile(path: string): Promise<RunTraceV1[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliUsageError(
      `Cannot read the trace file ${path}${code ? ` (${code})` : ""}: write one with \`detour trace export > ${basename(path)}\`.`,
    );
  }
  const traces: RunTraceV1[] = [];
  const lines = text.split("\n");
  try {
    lines.forEach((line, index) => {
      if (line.trim() !== "") traces.push(parseRunTraceLine(line, index + 1));
    });
  } catch (error) {
    if (error instanceof TraceLineError) throw new CliUsageError(`${path} ${error.message}.`);
    throw error;
  }
  if (traces.length === 0)
    throw new CliUsageError(`${path} holds no runs: record some through the gateway, then \`detour trace export > ${basename(path)}\`.`);
  return traces;
}

async function loadNamed(context: CommandContext, configPath: string | undefined): Promise<LoadedConfig> {
  const loaded = await loadConfig({ ...(configPath !== undefined ? { configPath } : {}), env: context.deps.env, cwd: context.deps.cwd });
  for (const warning of loaded.warnings) context.out.error(`detour: warning: ${warning}`);
  return loaded;
}

function nameOf(loaded: LoadedConfig, fallback: string): string {
  return loaded.path !== undefined ? basename(loaded.path) : fallback;
}

/** The configs to compare, the recording's first, each with a name the table can show (file names, made unique). */
async function configsToReplay(context: CommandContext, command: Command): Promise<{ name: string; loaded: LoadedConfig }[]> {
  const flags = configFlagsAround(rootArgs(command), "replay");
  const others = [...flags.after];
  let own = await loadNamed(context, flags.before);
  if (flags.before === undefined && own.path === undefined && others.length > 0) own = await loadNamed(context, others.shift());
  const configs = [{ name: nameOf(own, "defaults (no config file)"), loaded: own }];
  for (const path of others) {
    const loaded = await loadNamed(context, path);
    configs.push({ name: nameOf(loaded, path), loaded });
  }
  const seen = new Map<string, number>();
  return configs.map((entry) => {
    const count = (seen.get(entry.name) ?? 0) + 1;
    seen.set(entry.name, count);
    return count === 1 ? entry : { ...entry, name: `${entry.name} (${count})` };
  });
}

export function printReports(context: CommandContext, reports: readonly ReplayConfigReport[]): void {
  context.out.table(
    ["", ...reports.map((report) => report.name)],
    REPORT_ROWS.map(([label, cell]) => [label, ...reports.map(cell)]),
  );
}

export async function writeHtmlReport(
  path: string,
  title: string,
  results: readonly ReplayResult[],
  notes: readonly string[] = [],
): Promise<void> {
  const html = renderReplayHtml(
    title,
    results.map((result) => ({ report: result.report, traces: result.traces })),
    notes,
  );
  try {
    await writeFile(path, html, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliUsageError(
      `Cannot write the HTML report to ${path}${code ? ` (${code})` : ""}: choose a path in a folder you can write to.`,
    );
  }
}

export async function replayCommand(deps: CliDeps, command: Command, file: string, options: ReplayFlags): Promise<void> {
  const context = commandContext(deps, command);
  const traces = await readTraceFile(file);
  const configs = await configsToReplay(context, command);
  const results: ReplayResult[] = [];
  for (const { name, loaded } of configs) results.push(await replayTraces({ name, config: loaded.config, traces }));
  if (options.html !== undefined) {
    await writeHtmlReport(options.html, `Replay of ${basename(file)} (${traces.length} runs)`, results);
  }
  if (options.json) {
    context.out.json({ configs: results.map((result) => result.report) });
    return;
  }
  context.out.line(`Replayed ${traces.length} runs of ${basename(file)}; the first column is the recording's own config.`);
  printReports(
    context,
    results.map((result) => result.report),
  );
  if (options.html !== undefined) context.out.line(`HTML report: ${options.html}`);
}
