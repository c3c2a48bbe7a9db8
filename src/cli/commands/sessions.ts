/** `detour sessions list | show | reset | patch`: the command surface; the work is in actions/sessions.ts. */
import type { Command } from "commander";
import type { PatchFlags, SessionFlags } from "../actions/sessions.js";
import type { PruneFlags } from "../actions/sessions-retention.js";
import type { CliDeps } from "../cli-deps.js";
import { withExamples } from "../help.js";
import { agentOption, jsonOption } from "../options.js";

const actions = () => import("../actions/sessions.js");
const retention = () => import("../actions/sessions-retention.js");

export function registerSessionsCommand(program: Command, deps: CliDeps): void {
  const sessions = program.command("sessions").description("inspect and change per-session model and profile overrides");
  withExamples(sessions, [
    "detour sessions list",
    "detour sessions show chat-42",
    "detour sessions patch chat-42 --model anthropic/claude-sonnet-4-6",
  ]);

  const list = sessions
    .command("list")
    .description("list sessions with their overrides")
    .addOption(agentOption())
    .addOption(jsonOption())
    .action(async (options: SessionFlags, command: Command) => (await actions()).listSessions(deps, command, options));
  withExamples(list, ["detour sessions list", "detour sessions list --agent research --json"]);

  const show = sessions
    .command("show")
    .description("show one session's overrides")
    .argument("<sessionKey>", "session key (the x-detour-session header)")
    .addOption(agentOption())
    .addOption(jsonOption())
    .action(async (key: string, options: SessionFlags, command: Command) => (await actions()).showSession(deps, command, key, options));
  withExamples(show, ["detour sessions show chat-42", "detour sessions show chat-42 --json"]);

  const reset = sessions
    .command("reset")
    .description("clear the session's auto fallback and auto profile pin (user choices stay), like /new")
    .argument("<sessionKey>", "session key")
    .addOption(agentOption())
    .addOption(jsonOption())
    .action(async (key: string, options: SessionFlags, command: Command) => (await actions()).resetSession(deps, command, key, options));
  withExamples(reset, ["detour sessions reset chat-42"]);

  const patch = sessions
    .command("patch")
    .description("set the session's model and/or profile as a user choice (strict; 'none' removes it)")
    .argument("<sessionKey>", "session key")
    .option("--model <ref>", 'provider/model or an alias; "none" removes the choice')
    .option("--profile <profileId>", 'pin a profile (e.g. "openai:work"); "none" removes the pin')
    .addOption(agentOption())
    .addOption(jsonOption())
    .action(async (key: string, options: PatchFlags, command: Command) => (await actions()).patchSession(deps, command, key, options));
  withExamples(patch, [
    "detour sessions patch chat-42 --model anthropic/claude-sonnet-4-6",
    "detour sessions patch chat-42 --profile openai:work",
    "detour sessions patch chat-42 --model none --profile none",
  ]);

  // R-GW-8: sessions are bounded by configuration; these remove them on demand.
  const prune = sessions
    .command("prune")
    .description("remove sessions idle longer than --older-than (default: sessions.idleTtlDays)")
    .option("--older-than <duration>", 'idle time, e.g. "30d", "12h", "90m"')
    .addOption(agentOption())
    .addOption(jsonOption())
    .action(async (options: PruneFlags, command: Command) => (await retention()).pruneSessions(deps, command, options));
  withExamples(prune, ["detour sessions prune", "detour sessions prune --older-than 7d", "detour sessions prune --older-than 12h --json"]);

  const remove = sessions
    .command("remove")
    .description("remove one session and its overrides")
    .argument("<sessionKey>", "session key")
    .addOption(agentOption())
    .addOption(jsonOption())
    .action(async (key: string, options: SessionFlags, command: Command) => (await retention()).removeSession(deps, command, key, options));
  withExamples(remove, ["detour sessions remove chat-42", "detour sessions remove chat-42 --agent research --json"]);
}
