/**
 * `detour auth add | list | remove | order set | order show | reset`: the command surface. The work is in
 * actions/auth.ts, loaded only when a subcommand runs, so `--help` stays instant.
 */
import { Option, type Command } from "commander";
import type { CliDeps } from "../cli-deps.js";
import { withExamples } from "../help.js";
import { agentOption, jsonOption } from "../options.js";
import type { AddFlags, AgentFlags } from "../actions/auth.js";

const CREDENTIAL_TYPES = ["api_key", "token", "oauth"] as const;
const actions = () => import("../actions/auth.js");

function registerAdd(auth: Command, deps: CliDeps): void {
  const add = auth
    .command("add")
    .description("store a credential for a provider (use --key - to read it from stdin)")
    .argument("<provider>", "provider id, e.g. openai, anthropic, google, openrouter")
    .requiredOption("--key <key>", 'the key or token; "-" reads it from stdin so it stays out of shell history')
    .addOption(new Option("--type <type>", "credential type").choices(CREDENTIAL_TYPES).default("api_key"))
    .option("--id <profileId>", 'profile id (default "<provider>:default", or "<provider>:<email>" for OAuth)')
    .option("--email <email>", "account email of an OAuth login")
    .option("--force", "replace the profile when one with this id already exists")
    .addOption(agentOption())
    .addOption(jsonOption())
    .action(async (provider: string, options: AddFlags, command: Command) =>
      (await actions()).addProfile(deps, command, provider, options),
    );
  withExamples(add, [
    "pbpaste | detour auth add openai --key -",
    "detour auth add anthropic --key - --id anthropic:work < key.txt",
    "detour auth add openrouter --type token --key - --agent research",
    `echo '{"refresh":"…","email":"me@example.com"}' | detour auth add anthropic --type oauth --key -`,
  ]);
}

function registerList(auth: Command, deps: CliDeps): void {
  const list = auth
    .command("list")
    .description("list profiles with type, fingerprint and state (never the secret)")
    .option("--provider <id>", "only this provider's profiles")
    .addOption(agentOption())
    .addOption(jsonOption())
    .action(async (options: AgentFlags & { provider?: string }, command: Command) =>
      (await actions()).listProfiles(deps, command, options),
    );
  withExamples(list, ["detour auth list", "detour auth list --provider openai --json"]);
}

function registerRemove(auth: Command, deps: CliDeps): void {
  const remove = auth
    .command("remove")
    .description("delete a stored profile with its usage stats and order entries")
    .argument("<profileId>", 'profile id, e.g. "openai:default"')
    .addOption(agentOption())
    .addOption(jsonOption())
    .action(async (profileId: string, options: AgentFlags, command: Command) =>
      (await actions()).removeProfile(deps, command, profileId, options),
    );
  withExamples(remove, ["detour auth remove openai:old-key"]);
}

function registerOrder(auth: Command, deps: CliDeps): void {
  const order = auth.command("order").description("the stored profile order of a provider (wins over auth.order)");
  withExamples(order, [
    "detour auth order set openai openai:work openai:personal",
    "detour auth order show openai",
    "detour auth order set openai --clear",
  ]);
  const set = order
    .command("set")
    .description("store the order in which a provider's profiles are tried")
    .argument("<provider>", "provider id")
    .argument("[profileIds...]", "profile ids in the order to try them")
    .option("--clear", "remove the stored order (auth.order or round robin applies again)")
    .addOption(agentOption())
    .addOption(jsonOption())
    .action(async (provider: string, profileIds: string[], options: AgentFlags & { clear?: boolean }, command: Command) =>
      (await actions()).setOrder(deps, command, provider, profileIds, options),
    );
  withExamples(set, ["detour auth order set openai openai:work openai:personal", "detour auth order set anthropic --clear"]);
  const show = order
    .command("show")
    .description("print the order in which each provider's profiles are tried, and where it comes from")
    .argument("[provider]", "only this provider")
    .addOption(agentOption())
    .addOption(jsonOption())
    .action(async (provider: string | undefined, options: AgentFlags, command: Command) =>
      (await actions()).showOrder(deps, command, provider, options),
    );
  withExamples(show, ["detour auth order show", "detour auth order show openai --json"]);
}

function registerReset(auth: Command, deps: CliDeps): void {
  const reset = auth
    .command("reset")
    .description("clear every cooldown, disable, block and counter of a profile at once")
    .argument("<profileId>", 'profile id, e.g. "openai:default"')
    .addOption(agentOption())
    .addOption(jsonOption())
    .action(async (profileId: string, options: AgentFlags, command: Command) =>
      (await actions()).resetProfile(deps, command, profileId, options),
    );
  withExamples(reset, ["detour auth reset openai:default", "detour auth reset anthropic:work --agent research --json"]);
}

export function registerAuthCommand(program: Command, deps: CliDeps): void {
  const auth = program.command("auth").description("manage credentials (auth profiles) in the agent's store");
  withExamples(auth, ["pbpaste | detour auth add openai --key -", "detour auth list", "detour auth reset openai:default"]);
  registerAdd(auth, deps);
  registerList(auth, deps);
  registerRemove(auth, deps);
  registerOrder(auth, deps);
  registerReset(auth, deps);
}
