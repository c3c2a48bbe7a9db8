/** `detour config check | schema` (R-CF-2): the command surface; the work is in actions/config.ts. */
import type { Command } from "commander";
import type { CliDeps } from "../cli-deps.js";
import { withExamples } from "../help.js";
import { jsonOption } from "../options.js";

const actions = () => import("../actions/config.js");

export function registerConfigCommand(program: Command, deps: CliDeps): void {
  const config = program.command("config").description("check the config file or print its JSON Schema");
  withExamples(config, [
    "detour config check",
    "detour --config ./detour.json5 config check --json",
    "detour config schema > detour.schema.json",
  ]);

  const check = config
    .command("check")
    .description("validate the config file; lists every invalid path at once and exits 2 when invalid")
    .addOption(jsonOption())
    .action(async (options: { json?: boolean }, command: Command) => (await actions()).checkConfig(deps, command, options));
  withExamples(check, ["detour config check", "detour --config ./openclaw.json config check --json"]);

  const schema = config
    .command("schema")
    .description("print the JSON Schema (draft 2020-12) of detour.json5, for editors and CI checks")
    .action(async () => (await actions()).printSchema(deps));
  withExamples(schema, ["detour config schema > detour.schema.json"]);
}
