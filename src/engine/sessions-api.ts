/**
 * `detour.sessions` and `detour.profiles`: the operator-facing views and edits of session overrides
 * (R-SO-3, R-SO-4, R-PO-5) and of profile state (R-CD-8).
 */
import type { ModelRef, SessionEntry } from "../core/types.js";
import type { Clock } from "../ports/clock.js";
import type { EventSink } from "../ports/events.js";
import type { StateStore } from "../ports/state-store.js";
import { clearAutoOverrides, emitSessionOverride, userSelectionPatch } from "../runner/session-overrides.js";
import type { DetourProfiles, DetourSessions } from "./detour-api.js";
import type { AgentProfileSource } from "./profile-source.js";
import { agentStatus, sessionStatus } from "./status.js";

/** What the APIs need of one agent. */
export interface AgentHandle {
  agentId: string;
  store: StateStore;
  profileSource: AgentProfileSource;
}

export type AgentLookup = (agentId?: string) => Promise<AgentHandle>;

export function createSessionsApi(deps: {
  agent: AgentLookup;
  events: EventSink;
  resolveUserModel: (text: string) => ModelRef;
  clock: Clock;
  /** `sessions.idleTtlDays` (R-GW-8). */
  idleTtlDays: number;
}): DetourSessions {
  const { agent, resolveUserModel } = deps;
  const hub = deps.events;
  return {
    async get(sessionKey, opts) {
      const entry = await (await agent(opts?.agentId)).store.getSession(sessionKey);
      return entry ? sessionStatus(entry) : undefined;
    },
    async list(opts) {
      return (await (await agent(opts?.agentId)).store.listSessions()).map(sessionStatus);
    },
    async patch(sessionKey, patch, opts) {
      const context = await agent(opts?.agentId);
      const model = patch.model === undefined ? undefined : patch.model === null ? null : resolveUserModel(patch.model);
      const entry = await context.store.patchSession(sessionKey, userSelectionPatch({ model, profileId: patch.profile }));
      return sessionStatus(entry);
    },
    async reset(sessionKey, opts) {
      const context = await agent(opts?.agentId);
      const entry = await context.store.getSession(sessionKey);
      const result = await clearAutoOverrides(context.store, sessionKey, entry, { durability: "required" });
      emitSessionOverride(hub, { agentId: context.agentId, runId: null, sessionId: sessionKey }, "fallback_cleared", result);
      const after = await context.store.getSession(sessionKey);
      return after ? sessionStatus(after) : undefined;
    },
    async markCompacted(sessionKey, opts) {
      const context = await agent(opts?.agentId);
      // Compare-and-set loop: two concurrent compactions both count.
      for (;;) {
        const entry: SessionEntry | undefined = await context.store.getSession(sessionKey);
        const current = entry?.compactionCount;
        const result = await context.store.compareAndSetSession(sessionKey, [
          { field: "compactionCount", expected: current, value: (current ?? 0) + 1 },
        ]);
        if (result.applied.length > 0) return sessionStatus(result.entry);
      }
    },
    async prune(opts) {
      const olderThanMs = opts?.olderThanMs ?? deps.idleTtlDays * 24 * 60 * 60 * 1000;
      return (await agent(opts?.agentId)).store.pruneSessions({ idleSince: deps.clock.now() - olderThanMs });
    },
    async remove(sessionKey, opts) {
      return (await agent(opts?.agentId)).store.deleteSession(sessionKey);
    },
  };
}

export function createProfilesApi(deps: { agent: AgentLookup; clock: Clock }): DetourProfiles {
  const { agent, clock } = deps;
  return {
    async list(opts) {
      const context = await agent(opts?.agentId);
      const status = await agentStatus({
        agentId: context.agentId,
        store: context.store,
        profiles: context.profileSource,
        now: clock.now(),
      });
      return opts?.provider === undefined ? status.profiles : status.profiles.filter((profile) => profile.provider === opts.provider);
    },
    async reset(profileId, opts) {
      await (await agent(opts?.agentId)).store.resetUsageStats(profileId);
    },
  };
}
