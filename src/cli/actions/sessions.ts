/**
 * What `detour sessions list | show | reset | patch` do (R-SO-3, R-SO-4). `patch` is a user-driven change:
 * strict override, pending live switch. `reset` clears auto overrides and keeps user ones, like `/new`.
 */
import type { Command } from "commander";
import type { Detour, SessionStatus } from "../../engine/index.js";
import type { CliDeps } from "../cli-deps.js";
import { commandContext, loadCliConfig, withDetour } from "../command-context.js";
import { checkSessionPatch, currentChoice, UnknownProfileError } from "../../gateway/session-patch-checks.js";
import { sessionsNewestFirst } from "../../gateway/status-page/session-page.js";
import { checkedModelText } from "../model-flag.js";
import { CliUsageError, type CliOutput } from "../output.js";
import { SESSION_TABLE_HEAD, sessionLines, sessionRow } from "../views/session-view.js";

export interface SessionFlags {
  agent: string;
  json?: boolean;
}

export interface PatchFlags extends SessionFlags {
  model?: string;
  profile?: string;
}

async function requireSession(detour: Detour, agentId: string, key: string): Promise<SessionStatus> {
  const session = await detour.sessions.get(key, { agentId });
  if (!session) throw new CliUsageError(`No session "${key}" in agent "${agentId}". See \`detour sessions list\`.`);
  if (session.updatedAt !== undefined) return session;
  // Only a listing carries when the store last wrote a session.
  const listed = (await detour.sessions.list({ agentId })).find((entry) => entry.sessionKey === key);
  return listed?.updatedAt !== undefined ? { ...session, updatedAt: listed.updatedAt } : session;
}

function printSession(out: CliOutput, session: SessionStatus | undefined, json: boolean | undefined, key: string): void {
  if (json) {
    out.json(session ?? { sessionKey: key });
    return;
  }
  for (const line of sessionLines(session ?? { sessionKey: key }, Date.now())) out.line(line);
}

/** `none` removes a choice; anything else is passed on (and validated by the engine). */
function clearable(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  return value === "none" ? null : value;
}

export async function listSessions(deps: CliDeps, command: Command, options: SessionFlags): Promise<void> {
  const context = commandContext(deps, command);
  await withDetour(context, {}, async ({ detour }) => {
    const entries = sessionsNewestFirst(await detour.sessions.list({ agentId: options.agent }));
    if (options.json) return context.out.json({ agentId: options.agent, sessions: entries });
    if (entries.length === 0) return context.out.line(`No sessions in agent ${options.agent}.`);
    const now = Date.now();
    context.out.table(
      [...SESSION_TABLE_HEAD],
      entries.map((entry) => sessionRow(entry, now)),
    );
  });
}

export async function showSession(deps: CliDeps, command: Command, key: string, options: SessionFlags): Promise<void> {
  const context = commandContext(deps, command);
  await withDetour(context, {}, async ({ detour }) => {
    printSession(context.out, await requireSession(detour, options.agent, key), options.json, key);
  });
}

export async function resetSession(deps: CliDeps, command: Command, key: string, options: SessionFlags): Promise<void> {
  const context = commandContext(deps, command);
  await withDetour(context, {}, async ({ detour }) => {
    await requireSession(detour, options.agent, key);
    const after = await detour.sessions.reset(key, { agentId: options.agent });
    if (!options.json) context.out.line(`Reset session ${key}.`);
    printSession(context.out, after, options.json, key);
  });
}

export async function patchSession(deps: CliDeps, command: Command, key: string, options: PatchFlags): Promise<void> {
  const context = commandContext(deps, command);
  if (options.model === undefined && options.profile === undefined) {
    throw new CliUsageError("sessions patch needs --model and/or --profile.");
  }
  if (options.profile !== undefined && options.profile !== "none" && !/^[^:\s]+:\S+$/.test(options.profile)) {
    throw new CliUsageError(`Invalid --profile "${options.profile}": expected "provider:name" or "none".`);
  }
  const loaded = await loadCliConfig(context);
  const model =
    options.model !== undefined && options.model !== "none"
      ? checkedModelText(loaded.config, options.model, options.agent)
      : clearable(options.model);
  await withDetour(context, { config: loaded, discoverEnvCredentials: true }, async ({ detour, config }) => {
    const profile = clearable(options.profile);
    // R-PO-6: a pin to a profile the agent does not have would be silently ignored on every turn.
    const current = await currentChoice(detour.sessions, key, options.agent);
    const patch = await checkSessionPatch(
      { ...(model !== undefined ? { model } : {}), ...(profile !== undefined ? { profile } : {}) },
      { config, profiles: detour.profiles, agentId: options.agent, origin: "--model", ...(current ? { current } : {}) },
    ).catch((error: unknown) => {
      if (error instanceof UnknownProfileError) throw new CliUsageError(`--profile: ${error.message}`);
      throw error;
    });
    const updated = await detour.sessions.patch(key, patch, { agentId: options.agent });
    if (!options.json) context.out.line(`Patched session ${key}.`);
    printSession(context.out, updated, options.json, key);
  });
}
