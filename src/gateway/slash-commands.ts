/**
 * Slash commands sent as the whole last user message (SPEC R-GW-3): `/model provider/model[@profileId]`,
 * `/new`, `/reset`, `/status`. The gateway answers them itself, as an assistant message in the request's
 * dialect, exactly as a chat front end expects; no provider is called.
 */
import type { CanonicalRequest } from "../ports/canonical.js";
import type { DetourSessions, DetourProfiles, ProfileStatus, SessionStatus } from "../engine/index.js";

export type SlashCommand = { name: "model"; argument?: string } | { name: "new" } | { name: "reset" } | { name: "status" };

const COMMAND_PATTERN = /^\/(model|new|reset|status)(?:\s+([\s\S]*))?$/;

/** The text of the last message when it is a user message made only of text; else undefined. */
function lastUserText(request: CanonicalRequest): string | undefined {
  const last = request.messages.at(-1);
  if (!last || last.role !== "user" || last.content.length === 0) return undefined;
  if (!last.content.every((part) => part.type === "text")) return undefined;
  return last.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

export function parseSlashCommand(request: CanonicalRequest): SlashCommand | undefined {
  const text = lastUserText(request)?.trim();
  if (text === undefined) return undefined;
  const match = COMMAND_PATTERN.exec(text);
  if (!match) return undefined;
  const name = match[1] as SlashCommand["name"];
  const argument = match[2]?.trim();
  if (name === "model") return argument ? { name, argument } : { name };
  // `/new please` is a message about something new, not the command.
  return argument ? undefined : { name };
}

/**
 * Splits `provider/model@profileId`. Profile ids are `provider:name` and names may hold an `@` (an email),
 * so the separator is the first `@` that is followed by `<provider>:`.
 */
export function splitModelArgument(argument: string): { model: string; profile?: string } {
  for (let index = argument.indexOf("@"); index !== -1; index = argument.indexOf("@", index + 1)) {
    const rest = argument.slice(index + 1);
    if (/^[A-Za-z0-9._-]+:\S/.test(rest)) return { model: argument.slice(0, index).trim(), profile: rest.trim() };
  }
  return { model: argument.trim() };
}

export interface SlashCommandContext {
  agentId: string;
  sessionKey?: string;
  sessions: Pick<DetourSessions, "get" | "patch" | "reset">;
  profiles: Pick<DetourProfiles, "list">;
  /** The agent's configured chain, for `/status` when the session has no override. */
  configuredPrimary?: string;
  configuredFallbacks: readonly string[];
  now: number;
}

const NEEDS_SESSION =
  "This conversation has no session, so Detour cannot remember a choice for it. Send an `x-detour-session` " +
  "header with a stable key for the conversation and try again.";

const MODEL_USAGE =
  "Usage: /model provider/model[@profileId] (for example `/model anthropic/claude-sonnet-4-6`), `/model default` " +
  "to go back to the configured model, or `/model` alone to see the current one.";

function secondsUntil(until: number, now: number): string {
  const seconds = Math.max(1, Math.ceil((until - now) / 1000));
  return seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
}

function describeProfile(profile: ProfileStatus, now: number): string {
  if (profile.usable) return `- ${profile.id}: usable${profile.lastGood ? " (last good)" : ""}`;
  const reason = profile.unusableReason ?? "unavailable";
  const until = profile.unusableUntil !== undefined ? ` for ${secondsUntil(profile.unusableUntil, now)}` : "";
  return `- ${profile.id}: ${reason}${until}`;
}

function selectionLines(session: SessionStatus | undefined, context: SlashCommandContext, profiles: ProfileStatus[]): string[] {
  const configured = context.configuredPrimary ?? "(no model configured)";
  if (!session?.selectedModel) return [`Model: ${configured} (configured default)`];
  if (session.modelOverrideSource === "auto" && session.fallbackOrigin) {
    // R-SO-4: the selected model and, because it differs, the active fallback and why.
    const originProvider = session.fallbackOrigin.split("/")[0];
    const blocked = profiles.filter((profile) => profile.provider === originProvider && !profile.usable);
    const reason = blocked[0]?.unusableReason;
    return [
      `Selected model: ${session.fallbackOrigin}`,
      `Active fallback: ${session.selectedModel}${reason ? ` (${session.fallbackOrigin} is unavailable: ${reason.replace(/_/g, " ")})` : ""}`,
    ];
  }
  const pin = session.authProfileOverride ? ` with profile ${session.authProfileOverride}` : "";
  return [`Model: ${session.selectedModel}${pin} (chosen for this session)`];
}

/**
 * The models this session would fall back to, as its next turn walks them: none after a model the user
 * chose (that choice is strict); after an automatic fallback, the configured fallbacks other than the one
 * in use; otherwise the configured ones. A model is never listed as its own fallback.
 */
function fallbacksLine(session: SessionStatus | undefined, context: SlashCommandContext): string | undefined {
  const selected = session?.selectedModel;
  if (selected && session.modelOverrideSource !== "auto") {
    return "Fallbacks: none (a model chosen for this session is used alone; `/model default` goes back to the configured chain)";
  }
  const current = selected ?? context.configuredPrimary;
  const fallbacks = [...new Set(context.configuredFallbacks)].filter((model) => model !== current);
  return fallbacks.length > 0 ? `Fallbacks: ${fallbacks.join(", ")}` : undefined;
}

async function statusText(context: SlashCommandContext): Promise<string> {
  const [session, profiles] = await Promise.all([
    context.sessionKey !== undefined ? context.sessions.get(context.sessionKey, { agentId: context.agentId }) : undefined,
    context.profiles.list({ agentId: context.agentId }),
  ]);
  const lines = [`Agent: ${context.agentId}`, `Session: ${context.sessionKey ?? "(none)"}`, ...selectionLines(session, context, profiles)];
  const fallbacks = fallbacksLine(session, context);
  if (fallbacks !== undefined) lines.push(fallbacks);
  lines.push(profiles.length > 0 ? "Profiles:" : "Profiles: none stored or configured");
  lines.push(...profiles.map((profile) => describeProfile(profile, context.now)));
  return lines.join("\n");
}

async function modelText(argument: string | undefined, context: SlashCommandContext): Promise<string> {
  if (argument === undefined) return statusText(context);
  if (context.sessionKey === undefined) return NEEDS_SESSION;
  const options = { agentId: context.agentId };
  if (argument === "default") {
    await context.sessions.patch(context.sessionKey, { model: null, profile: null }, options);
    return `Model choice cleared: this session uses the configured model (${context.configuredPrimary ?? "none configured"}) again.`;
  }
  const { model, profile } = splitModelArgument(argument);
  if (model === "" || /\s/.test(model) || (profile !== undefined && /\s/.test(profile))) return MODEL_USAGE;
  const session = await context.sessions.patch(context.sessionKey, { model, ...(profile ? { profile } : {}) }, options);
  const chosen = session.selectedModel ?? model;
  return profile ? `Model set to ${chosen} with profile ${profile} for this session.` : `Model set to ${chosen} for this session.`;
}

/** Runs the command and returns the assistant text that answers it. */
export async function answerSlashCommand(command: SlashCommand, context: SlashCommandContext): Promise<string> {
  switch (command.name) {
    case "status":
      return statusText(context);
    case "model":
      return modelText(command.argument, context);
    case "new":
    case "reset": {
      if (context.sessionKey === undefined) return NEEDS_SESSION;
      const session = await context.sessions.reset(context.sessionKey, { agentId: context.agentId });
      const kept =
        session?.modelOverrideSource === "user" && session.selectedModel ? ` Your choice of ${session.selectedModel} is kept.` : "";
      return `Started fresh: automatic fallbacks for this session are cleared.${kept}`;
    }
  }
}
