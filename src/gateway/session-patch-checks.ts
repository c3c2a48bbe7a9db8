/**
 * A session patch from a person (`/model`, `detour sessions patch`, `PATCH /admin/sessions/:key`) is checked
 * before it is stored (R-SO-4, R-PO-6): the model must resolve to a known provider (a bare name through the
 * one resolver, R-GW-3) and a pinned profile must exist for the agent and belong to that provider. Stored
 * unchecked, such a choice would fail every later turn of the conversation, or be silently ignored.
 */
import { modelAliases, requireModelName, type DetourConfig } from "../config/index.js";
import { DetourError } from "../core/errors.js";
import type { DetourProfiles, DetourSessions, SessionPatch } from "../engine/create-detour.js";

/** A pin names a profile the agent does not have, or one of another provider. */
export class UnknownProfileError extends DetourError {
  readonly code = "DETOUR_UNKNOWN_PROFILE";
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
}

/** Returns the patch with its model resolved to `provider/model`; throws ModelNameError / UnknownProfileError. */
export async function checkSessionPatch(patch: SessionPatch, context: SessionPatchCheckContext): Promise<SessionPatch> {
  const model =
    typeof patch.model === "string" ? requireModelName(context.config, modelAliases(context.config), patch.model, context.origin) : patch.model;
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
    const provider = typeof model === "string" ? model.slice(0, model.indexOf("/")) : undefined;
    if (provider !== undefined && profile.provider !== undefined && profile.provider !== provider) {
      throw new UnknownProfileError(
        patch.profile,
        `Profile "${patch.profile}" belongs to ${profile.provider}, not to ${provider}; pin a ${provider} profile or choose a ${profile.provider} model.`,
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
      const checked = await checkSessionPatch(patch, { config, profiles, agentId, origin });
      return sessions.patch(sessionKey, checked, options);
    },
  };
}
