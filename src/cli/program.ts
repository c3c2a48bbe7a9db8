/**
 * The `detour` command tree (R-CL-1). Commander is configured once on the root, before any subcommand is
 * added, so every subcommand inherits the same error handling: no process.exit inside commander, errors and
 * help routed through the injected streams, and the help shown after a usage error.
 *
 * Startup cost matters for a CLI: every command module registers options only and loads its implementation
 * when it runs. `demo` pulls in the whole gateway stack when it is registered, so it is registered only
 * when the command line may need it (the demo itself, help, or anything that is not another command).
 */
import { Command } from "commander";
import type { CliDeps } from "./cli-deps.js";
import { registerAuthCommand } from "./commands/auth.js";
import { registerCatalogueCommand } from "./commands/catalogue.js";
import { registerConfigCommand } from "./commands/config.js";
import { registerDoctorCommand } from "./commands/doctor.js";
import { registerGatewayCommand } from "./commands/gateway.js";
import { registerMockProviderCommand } from "./commands/mock-provider.js";
import { registerReplayCommands } from "./commands/replay.js";
import { registerRunCommand } from "./commands/run.js";
import { registerSessionsCommand } from "./commands/sessions.js";
import { registerStatusCommand } from "./commands/status.js";
import { registerTraceCommand } from "./commands/trace.js";
import { withExamples } from "./help.js";

export const DETOUR_VERSION = "0.1.0";

const REGISTERED_EAGERLY = new Set([
  "gateway",
  "run",
  "status",
  "auth",
  "sessions",
  "doctor",
  "config",
  "catalogue",
  "mock-provider",
  "trace",
  "replay",
  "drill",
]);
/** Root options that take a value, so the value is not mistaken for the command name. */
const ROOT_OPTIONS_WITH_VALUE = new Set(["--config"]);

/** The command the user named: the first argument that is neither a root option nor its value. */
export function commandNameOf(argv: readonly string[]): string | undefined {
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? "";
    if (ROOT_OPTIONS_WITH_VALUE.has(argument)) index += 1;
    else if (!argument.startsWith("-")) return argument;
  }
  return undefined;
}

export async function createProgram(deps: CliDeps, argv: readonly string[] = []): Promise<Command> {
  const program = new Command("detour")
    .description("Keeps LLM calls alive when providers fail: credential rotation, cooldowns, model fallback.")
    .version(DETOUR_VERSION, "-V, --version", "print the Detour version")
    .option("--config <path>", "config file (default ./detour.json5, else $DETOUR_HOME/detour.json5)")
    .exitOverride()
    .showHelpAfterError("(add --help for usage and examples)")
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (text) => void deps.stdout.write(text),
      writeErr: (text) => void deps.stderr.write(text),
    });
  withExamples(program, ["detour demo", 'detour run "Say hello"', "detour status", "detour --config ./detour.json5 gateway"]);

  registerGatewayCommand(program, deps);
  registerRunCommand(program, deps);
  registerStatusCommand(program, deps);
  registerAuthCommand(program, deps);
  registerSessionsCommand(program, deps);
  registerDoctorCommand(program, deps);
  registerConfigCommand(program, deps);
  registerCatalogueCommand(program, deps);
  registerTraceCommand(program, deps);
  registerReplayCommands(program, deps);
  const named = commandNameOf(argv);
  if (named === undefined || !REGISTERED_EAGERLY.has(named)) {
    const { registerDemoCommand } = await import("./commands/demo.js");
    registerDemoCommand(program, deps);
  }
  registerMockProviderCommand(program, deps);
  return program;
}
