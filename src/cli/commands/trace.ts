/** `detour trace export`: the command surface; the work is in actions/trace.ts. */
import type { Command } from "commander";
import type { TraceExportFlags } from "../actions/trace.js";
import type { CliDeps } from "../cli-deps.js";
import { withExamples } from "../help.js";
import { agentOption } from "../options.js";

const actions = () => import("../actions/trace.js");

export function registerTraceCommand(program: Command, deps: CliDeps): void {
  const trace = program.command("trace").description("recorded runs: what each request went through");
  withExamples(trace, ["detour trace export > runs.jsonl"]);

  const exportCommand = trace
    .command("export")
    .description("print the kept run traces as JSON Lines (one run per line, oldest first)")
    .option("--since <iso>", "only runs that started at or after this time")
    .option("--until <iso>", "only runs that started before this time")
    .option("--session <key>", "only runs of this session")
    .addOption(agentOption())
    .action(async (options: TraceExportFlags, command: Command) => (await actions()).exportTraces(deps, command, options));
  withExamples(exportCommand, ["detour trace export > runs.jsonl", "detour trace export --since 2026-01-05T12:00:00Z --session chat-42"]);
}
