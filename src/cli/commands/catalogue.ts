/** `detour catalogue update | show`: the command surface; the work is in actions/catalogue.ts. */
import { Option, type Command } from "commander";
import type { CliDeps } from "../cli-deps.js";
import { withExamples } from "../help.js";
import { jsonOption, parsePositiveSeconds } from "../options.js";

const actions = () => import("../actions/catalogue.js");

export function registerCatalogueCommand(program: Command, deps: CliDeps): void {
  const catalogue = program
    .command("catalogue")
    .description("what Detour knows about models (windows, limits, prices): refresh it from models.dev, or explain one model");
  withExamples(catalogue, ["detour catalogue update", "detour catalogue show anthropic/claude-sonnet-4-6"]);

  const update = catalogue
    .command("update")
    .description("fetch models.dev's catalogue and keep it under $DETOUR_HOME/catalogue; a failed fetch keeps the previous copy")
    .addOption(new Option("--url <url>", "where to fetch the catalogue from").default("https://models.dev/api.json"))
    .addOption(
      new Option("--timeout-seconds <seconds>", "give up on the fetch after this long")
        .argParser(parsePositiveSeconds("--timeout-seconds"))
        .default(30),
    )
    .addOption(jsonOption())
    .action(async (options: { url: string; timeoutSeconds: number; json?: boolean }, command: Command) =>
      (await actions()).updateCatalogue(deps, command, options),
    );
  withExamples(update, ["detour catalogue update", "detour catalogue update --url http://127.0.0.1:8080/api.json --json"]);

  const show = catalogue
    .command("show")
    .argument("<model>", "a provider/model, a bare model name or an alias")
    .description("each figure Detour uses for a model (window, output limit, prices, …) and where it came from")
    .addOption(jsonOption())
    .action(async (model: string, options: { json?: boolean }, command: Command) =>
      (await actions()).showCatalogueModel(deps, command, model, options),
    );
  withExamples(show, ["detour catalogue show claude-sonnet-4-5", "detour catalogue show openai/gpt-5.2 --json"]);
}
