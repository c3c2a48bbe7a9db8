/**
 * `detour doctor [--fix] [--from DIR]`: the command surface; the work is in actions/doctor.ts.
 */
import type { Command } from "commander";
import type { DoctorFlags } from "../actions/doctor.js";
import type { CliDeps } from "../cli-deps.js";
import { withExamples } from "../help.js";
import { agentOption, jsonOption } from "../options.js";

export function registerDoctorCommand(program: Command, deps: CliDeps): void {
  const doctor = program
    .command("doctor")
    .description("check config, file modes, store integrity; with --fix repair them and import OpenClaw state")
    .option("--fix", "repair file modes and run the legacy import")
    .option("--from <dir>", "OpenClaw state directory to import from (e.g. ~/.openclaw); needs --fix")
    .addOption(agentOption())
    .addOption(jsonOption())
    .action(async (flags: DoctorFlags, command: Command) => (await import("../actions/doctor.js")).runDoctor(deps, command, flags));
  withExamples(doctor, [
    "detour doctor",
    "detour doctor --fix",
    "detour doctor --fix --from ~/.openclaw",
    "detour doctor --fix --from ~/.openclaw --json",
  ]);
}
