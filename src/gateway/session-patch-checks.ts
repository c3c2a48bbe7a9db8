/**
 * A session patch from a person (`/model`, `detour sessions patch`, `PATCH /admin/sessions/:key`) is checked
 * before it is stored (R-SO-4, R-PO-6): the model must resolve to a known provider (a bare name through the
 * one resolver, R-GW-3) and a pinned profile must exist for the agent and belong to that provider. Stored
 * unchecked, such a choice would fail every later turn of the conversation, or be silently ignored.
 */
import { agentSettings, modelAliases, requireModelName, resolveModelName, type DetourConfig } from "../config/index.js";
import { ERROR_CODES, DetourError } from "../core/errors.js";
import type { DetourProfiles, DetourSessions, SessionPatch } from "../engine/index.js";

/** A pin names a profile the agent does not have, or one of another provider. */
export class UnknownProfileError extends DetourError {
  readonly code = ERROR_CODES.unknownProfile;
  readonly profileId: string;
  constructor(profileId: string, message: string) {
    super(message);
    this.profileId = profileId;
  }
}

export interface SessionPatchCheckContext {
  config: DetourConfig;
  profiles: Pick<DetourProfiles, "list">;
  agentId: string;
  /** Where the text came from, for the message (`/model`, `--model`, `model`). */
  origin: string;
  /**
   * The session's model choice before this patch (`provider/model` and who chose it); absent for a new session
   * or one on the agent's chain. A pin alone is checked against it, or else against the agent's chain.
   */
  current?: { model: string; source?: string };
}

/** "a google profile", "an openai profile". */
function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? "an" : "a"} ${word}`;
}

function providerOfRef(ref: string): string {
  return ref.slice(0, ref.indexOf("/"));
}

/**
 * The providers whose models a session may run on: the model the patch or the user chose (strict), else the
 * agent's primary and fallbacks (an auto fallback model is one of those).
 */
function sessionProviders(model: string | null | undefined, context: SessionPatchCheckContext): { providers: Set<string>; what: string } {
  if (typeof model === "string") return { providers: new Set([providerOfRef(model)]), what: `the provider of ${model}` };
  if (model === undefined && context.current?.source === "user") {
    return {
      providers: new Set([providerOfRef(context.current.model)]),
      what: `the provider of the session's model ${context.current.model}`,
    };
  }
  const selection = agentSettings(context.config, context.agentId).model ?? context.config.agents.defaults.model;
  const chain = [selection.primary, ...(selection.fallbacks ?? [])].filter((ref): ref is string => typeof ref === "string");
  const aliases = modelAliases(context.config);
  const refs = chain.flatMap((text) => {
    const resolution = resolveModelName(context.config, aliases, text);
    return resolution.ok ? [resolution.ref] : [];
  });
  return { providers: new Set(refs.map(providerOfRef)), what: `the agent's models: ${refs.join(", ")}` };
}

/** Returns the patch with its model resolved to `provider/model`; throws ModelNameError / UnknownProfileError. */
export async function checkSessionPatch(patch: SessionPatch, context: SessionPatchCheckContext): Promise<SessionPatch> {
  const model =
    typeof patch.model === "string"
      ? requireModelName(context.config, modelAliases(context.config), patch.model, context.origin)
      : patch.model;
  if (typeof patch.profile === "string") {
    const profiles = await context.profiles.list({ agentId: context.agentId });
    const profile = profiles.find((candidate) => candidate.id === patch.profile);
    if (!profile) {
      const known = profiles.map((candidate) => candidate.id);
      throw new UnknownProfileError(
        patch.profile,
        `No profile "${patch.profile}" exists for agent ${context.agentId} (known: ${known.length > 0 ? known.join(", ") : "none"}); ` +
          "add it with `detour auth add` or pin one of the known ones.",
      );
    }
    // A pin of a provider none of the session's models use would be stored and then ignored on every turn.
    const { providers, what } = sessionProviders(model, context);
    if (profile.provider !== undefined && providers.size > 0 && !providers.has(profile.provider)) {
      const wanted = [...providers].map(withArticle).join(" or ");
      throw new UnknownProfileError(
        patch.profile,
        `Profile "${patch.profile}" belongs to ${profile.provider}, not to ${[...providers].join(" or ")} (${what}); ` +
          `pin ${wanted} profile or choose ${withArticle(profile.provider)} model.`,
      );
    }
  }
  return {
    ...(model !== undefined ? { model } : {}),
    ...(patch.profile !== undefined ? { profile: patch.profile } : {}),
  };
}

/** `detour.sessions` whose `patch` checks first: what the gateway's slash commands and admin routes use. */
export function checkedSessions(
  sessions: DetourSessions,
  profiles: Pick<DetourProfiles, "list">,
  config: DetourConfig,
  origin: string,
): DetourSessions {
  return {
    ...sessions,
    async patch(sessionKey, patch, options) {
      const agentId = options?.agentId ?? "main";
      const current = await currentChoice(sessions, sessionKey, agentId);
      const checked = await checkSessionPatch(patch, { config, profiles, agentId, origin, ...(current ? { current } : {}) });
      return sessions.patch(sessionKey, checked, options);
    },
  };
}

/** The session's model choice as `checkSessionPatch` reads it; undefined for a new session or one without a choice. */
export async function currentChoice(
  sessions: Pick<DetourSessions, "get">,
  sessionKey: string,
  agentId: string,
): Promise<SessionPatchCheckContext["current"]> {
  const session = await sessions.get(sessionKey, { agentId });
  if (session?.selectedModel === undefined) return undefined;
  return { model: session.selectedModel, ...(session.modelOverrideSource ? { source: session.modelOverrideSource } : {}) };
}
