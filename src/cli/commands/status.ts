/** `detour status [--agent --session --json]`: the command surface; the work is in actions/status.ts. */
import type { Command } from "commander";
import type { StatusFlags } from "../actions/status.js";
import type { CliDeps } from "../cli-deps.js";
import { withExamples } from "../help.js";
import { agentOption, jsonOption } from "../options.js";

export function registerStatusCommand(program: Command, deps: CliDeps): void {
  const status = program
    .command("status")
    .description("show profiles (cooldowns, disables, blocks), last good profiles and session overrides")
    .addOption(agentOption())
    .option("--session <key>", "show only this session")
    .option("--sessions-limit <n>", "sessions to show, newest first (default 50)")
    .option("--sessions-offset <n>", "skip this many of the newest sessions (default 0)")
    .addOption(jsonOption())
    .action(async (options: StatusFlags, command: Command) => (await import("../actions/status.js")).showStatus(deps, command, options));
  withExamples(status, [
    "detour status",
    "detour status --json | jq '.profiles[] | {id, usable, unusableUntil}'",
    "detour status --session chat-42",
    "detour status --sessions-limit 20 --sessions-offset 40",
  ]);
}
