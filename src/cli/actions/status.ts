/** What `detour status` does: profiles with their cooldowns, last good profiles, sessions. */
import type { Command } from "commander";
import type { ProfileStatus } from "../../engine/status.js";
import type { CliDeps } from "../cli-deps.js";
import { commandContext, withDetour } from "../command-context.js";
import { CliUsageError, type CliOutput } from "../output.js";
import { formatTimestamp, profileStateText } from "../views/profile-view.js";
import { SESSION_TABLE_HEAD, sessionLines, sessionRow } from "../views/session-view.js";

export interface StatusFlags {
  agent: string;
  session?: string;
  json?: boolean;
}

function colouredState(out: CliOutput, profile: ProfileStatus, now: number): string {
  const text = profileStateText(profile, now);
  if (profile.usable) return text === "ok" ? out.colors.green(text) : out.colors.yellow(text);
  return text.startsWith("disabled") ? out.colors.red(text) : out.colors.yellow(text);
}

export async function showStatus(deps: CliDeps, command: Command, options: StatusFlags): Promise<void> {
  const context = commandContext(deps, command);
  const { out } = context;
  await withDetour(context, { discoverEnvCredentials: true }, async ({ detour, configFile }) => {
    const snapshot = await detour.status({ agentId: options.agent });
    const agent = snapshot.agents[0];
    if (!agent) throw new Error(`No status for agent ${options.agent}.`);
    const session = options.session !== undefined ? agent.sessions.find((entry) => entry.sessionKey === options.session) : undefined;
    if (options.session !== undefined && !session) {
      throw new CliUsageError(`No session "${options.session}" in agent "${options.agent}". See \`detour sessions list\`.`);
    }
    if (options.json) {
      out.json({
        now: snapshot.now,
        agentId: agent.agentId,
        configFile: configFile ?? null,
        profiles: agent.profiles,
        lastGood: agent.lastGood,
        sessions: session ? [session] : agent.sessions,
      });
      return;
    }
    const now = snapshot.now;
    out.line(out.colors.bold(`Agent ${agent.agentId}`) + out.colors.dim(`  config: ${configFile ?? "(defaults)"}`));
    if (agent.profiles.length === 0) {
      out.line("No profiles. Add one with `detour auth add <provider> --key -`, or export OPENAI_API_KEY & co.");
    } else {
      out.table(
        ["profile", "provider", "type", "state", "errors", "last used", "last good"],
        agent.profiles.map((profile) => [
          profile.id,
          profile.provider,
          profile.type,
          colouredState(out, profile, now),
          profile.stats.errorCount ?? 0,
          formatTimestamp(profile.stats.lastUsed, now),
          profile.lastGood ? "yes" : "",
        ]),
      );
    }
    if (session) {
      out.line();
      for (const line of sessionLines(session, now)) out.line(line);
      return;
    }
    if (agent.sessions.length > 0) {
      out.line();
      out.table([...SESSION_TABLE_HEAD], agent.sessions.map((entry) => sessionRow(entry, now)));
    }
  });
}
