/** `detour replay` and `detour drill`: the command surface; the work is in actions/replay.ts and actions/drill.ts. */
import { Option, type Command } from "commander";
import type { DrillFlags } from "../actions/drill.js";
import type { ReplayFlags } from "../actions/replay.js";
import type { CliDeps } from "../cli-deps.js";
import { withExamples } from "../help.js";
import { jsonOption } from "../options.js";
import { CliUsageError } from "../output.js";

const replayActions = () => import("../actions/replay.js");
const drillActions = () => import("../actions/drill.js");

function parsePercent(value: string): number {
  const percent = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || percent > 100) {
    throw new CliUsageError(`--max-failed-percent expects a number from 0 to 100, got "${value}".`);
  }
  return percent;
}

export function registerReplayCommands(program: Command, deps: CliDeps): void {
  const replay = program
    .command("replay")
    .description("replay a recorded trace against your config and others: what would config B have done?")
    .argument("<file>", "trace file written by `detour trace export` (JSON Lines)")
    // Declared for the help only: the values are read from the command line in order (the root owns --config).
    .addOption(new Option("--config <file>", "another config to compare (repeatable); the first column is the recording's own config"))
    .addOption(jsonOption())
    .option("--html <file>", "also write a self-contained HTML report with the timeline chart")
    .action(async (file: string, options: ReplayFlags, command: Command) =>
      (await replayActions()).replayCommand(deps, command, file, options),
    );
  withExamples(replay, [
    "detour trace export > runs.jsonl",
    "detour replay runs.jsonl --config with-fallback.json5",
    "detour --config detour.json5 replay runs.jsonl --config b.json5 --config c.json5 --json",
    "detour replay runs.jsonl --config b.json5 --html replay.html",
  ]);

  const drill = program
    .command("drill")
    .description("run a built-in incident (429 storm, overloaded provider, …) against your config and see what users would have seen")
    .argument("[name]", "drill to run (see --list), or `all`")
    .option("--list", "list the built-in drills")
    .addOption(jsonOption())
    .option("--html <file>", "also write a self-contained HTML report with the timeline chart")
    .option("--max-failed-percent <n>", "exit with code 1 when more runs than this failed (for CI)", parsePercent)
    .action(async (name: string | undefined, options: DrillFlags, command: Command) =>
      (await drillActions()).drillCommand(deps, command, name, options),
    );
  withExamples(drill, [
    "detour drill --list",
    "detour drill rate-limit-storm",
    "detour --config detour.json5 drill rate-limit-storm --json --max-failed-percent 1",
    "detour drill all",
  ]);
}
