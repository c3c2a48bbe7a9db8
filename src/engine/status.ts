/**
 * `detour.status()`: profiles with their usage stats and whether they are usable now, and sessions with
 * their overrides. Never includes a secret (R-OB-2): credentials are reduced to their type and email.
 */
import { unusableReason, unusableUntil } from "../core/cooldown.js";
import type { FailoverReason } from "../core/reasons.js";
import type { CredentialType, SessionEntry, UsageStats } from "../core/types.js";
import type { ProfileOrigin, AgentProfileSource } from "./profile-source.js";
import type { StateStore } from "../ports/state-store.js";
import { headroomStatusOf, type ProfileHeadroomStatus } from "./headroom-status.js";
import type { ProfileSeatStatus } from "./seat-keeping.js";

export interface ProfileStatus {
  id: string;
  provider?: string;
  type?: CredentialType;
  email?: string;
  origin: ProfileOrigin;
  /** Usable now for every model (a model-scoped cooldown makes this false; see `stats.cooldownModel`). */
  usable: boolean;
  unusableUntil?: number;
  unusableReason?: FailoverReason;
  /** `lastGood[provider]` names this profile (R-AP-3). */
  lastGood: boolean;
  stats: UsageStats;
  /** R-PO-7: the tightest fresh rate-limit window the provider reported; absent without a reading. */
  headroom?: ProfileHeadroomStatus;
  /** R-GW-7: US dollars this profile's priced answers cost in the last 24 hours (hourly buckets). */
  spendUsd24h: number;
  /**
   * R-PO-8: attempts in flight, the seats the profile has and requests waiting in line for it; present when
   * the profile has a seat limit or something is in flight or waiting on it.
   */
  seats?: ProfileSeatStatus;
}

export interface SessionStatus extends SessionEntry {
  /** `provider/model` of the override, when one is set. */
  selectedModel?: string;
  /** Present while the session runs on an auto fallback: the model it stands in for (R-SO-4 `/status`). */
  fallbackOrigin?: string;
}

export interface AgentStatus {
  agentId: string;
  profiles: ProfileStatus[];
  lastGood: Record<string, string>;
  sessions: SessionStatus[];
}

export interface DetourStatus {
  now: number;
  agents: AgentStatus[];
  /** R-PO-8: requests of this process waiting in line for a seat. */
  queueLength: number;
  /**
   * R-TT-1, R-HG-2: each model's recent first-token times as this process saw them, the first-token deadline in
   * force and the hedge delay; absent when the engine keeps none.
   */
  firstToken?: FirstTokenStatus[];
}

export type { FirstTokenStatus } from "./hedging-deps.js";
import type { FirstTokenStatus } from "./hedging-deps.js";

export async function agentStatus(input: {
  agentId: string;
  store: StateStore;
  profiles: AgentProfileSource;
  now: number;
  /** `auth.headroom.minRemaining` (R-PO-7), to tell nearly spent profiles. */
  minRemaining?: number;
  /** R-PO-8: seats per profile; absent = none shown. */
  seats?: (profiles: { id: string; provider?: string }[]) => Promise<Record<string, ProfileSeatStatus>>;
}): Promise<AgentStatus> {
  const [known, allStats, lastGood, sessions, spend] = await Promise.all([
    input.profiles.all(),
    input.store.getAllUsageStats(),
    input.store.getAllLastGood(),
    input.store.listSessions(),
    input.store.spendByProfile(input.now),
  ]);
  const readings = await input.store.headroomReadings(
    known.map((profile) => profile.id),
    input.now,
  );
  const configured = input.profiles.configuredProfiles;
  const seats = input.seats
    ? await input.seats(
        known.map((profile) => ({ id: profile.id, provider: profile.credential?.provider ?? configured[profile.id]?.provider })),
      )
    : {};
  const profiles = known.map((profile): ProfileStatus => {
    const stats = allStats[profile.id] ?? {};
    const provider = profile.credential?.provider ?? configured[profile.id]?.provider;
    const until = unusableUntil(stats, undefined, input.now);
    const reason = unusableReason(stats, undefined, input.now);
    const email = profile.credential?.type === "oauth" ? profile.credential.email : configured[profile.id]?.email;
    const type = profile.credential?.type ?? configured[profile.id]?.mode;
    // The last profile that answered is not "last good" while it is disabled (billing, revoked key).
    const disabled = stats.disabledUntil !== undefined && stats.disabledUntil > input.now;
    return {
      id: profile.id,
      ...(provider !== undefined ? { provider } : {}),
      // A keyRef profile whose variable is not set here still has the type its config declares.
      ...(type !== undefined ? { type } : {}),
      ...(email !== undefined ? { email } : {}),
      origin: profile.origin,
      usable: until === undefined,
      ...(until !== undefined ? { unusableUntil: until } : {}),
      ...(reason !== undefined ? { unusableReason: reason } : {}),
      lastGood: provider !== undefined && lastGood[provider] === profile.id && !disabled,
      stats,
      spendUsd24h: spend[profile.id] ?? 0,
      ...headroomField(headroomStatusOf(readings[profile.id], input.now, input.minRemaining ?? 0.05)),
      ...seatsField(seats[profile.id]),
    };
  });
  return { agentId: input.agentId, profiles, lastGood, sessions: sessions.map(sessionStatus) };
}

function seatsField(seats: ProfileSeatStatus | undefined): { seats?: ProfileSeatStatus } {
  return seats && (seats.limit !== null || seats.inFlight > 0 || seats.queued > 0) ? { seats } : {};
}

function headroomField(headroom: ProfileHeadroomStatus | undefined): { headroom?: ProfileHeadroomStatus } {
  return headroom ? { headroom } : {};
}

export function sessionStatus(entry: SessionEntry): SessionStatus {
  const selected = entry.providerOverride && entry.modelOverride ? `${entry.providerOverride}/${entry.modelOverride}` : undefined;
  const origin =
    entry.modelOverrideSource === "auto" && entry.modelOverrideFallbackOriginProvider && entry.modelOverrideFallbackOriginModel
      ? `${entry.modelOverrideFallbackOriginProvider}/${entry.modelOverrideFallbackOriginModel}`
      : undefined;
  return {
    ...entry,
    ...(selected !== undefined ? { selectedModel: selected } : {}),
    ...(origin !== undefined ? { fallbackOrigin: origin } : {}),
  };
}
