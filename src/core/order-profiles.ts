/**
 * Profile order for one provider (SPEC R-PO-1…R-PO-4, R-PO-7): which credentials may be tried and in which
 * order.
 */
import { clearExpired, isUsable, unusableUntil } from "./cooldown.js";
import type { ProfileHeadroom } from "./headroom/assess.js";
import { assessProfiles, moveNearlySpentLast, strategyKey, type HeadroomInput } from "./headroom/steer.js";
import type { Credential, CredentialType, ProfileConfig, UsageStats } from "./types.js";

export interface OrderProfilesInput {
  provider: string;
  /** The model about to run; a cooldown scoped to another model does not make a profile unusable. */
  model?: string;
  now: number;
  /** Set with `detour auth order set`; wins over the configured order (R-AP-3). */
  storedOrder?: readonly string[];
  /** `auth.order[provider]`. */
  configuredOrder?: readonly string[];
  /** `auth.profiles`. */
  configuredProfiles?: Readonly<Record<string, ProfileConfig>>;
  /** Every known profile: stored ones and those whose key comes from `keyRef.env`. */
  profiles: readonly { id: string; credential?: Credential }[];
  usageStats: Readonly<Record<string, UsageStats | undefined>>;
  /** R-PO-7: latest rate-limit readings and `auth.headroom`; absent = order without headroom. */
  headroom?: HeadroomInput;
}

export interface OrderProfilesResult {
  /** Usable profiles first, then unusable ones (soonest expiry first). */
  ordered: string[];
  usable: string[];
  unusable: string[];
  /** The order came from a stored or configured list rather than round robin. */
  explicit: boolean;
  dropped: { id: string; why: string }[];
  /** Stats whose expired windows were cleared while resolving (R-PO-4); only the changed ones. */
  clearedStats: Record<string, UsageStats>;
  /** R-PO-7: what the fresh readings say about each usable profile (only profiles with one). */
  headroom: Record<string, ProfileHeadroom>;
  /** R-PO-7: usable but nearly spent; they are at the end of `usable`. */
  nearlySpent: string[];
  /** R-PO-7: nearly spent profiles that the order without headroom would have tried first. */
  passedOver: string[];
}

/** Round-robin type preference (R-PO-3): subscriptions first, static tokens next, metered keys last. */
const TYPE_RANK: Readonly<Record<CredentialType, number>> = { oauth: 0, token: 1, api_key: 2 };

/** Config modes that accept a credential type other than their own: an `oauth` login may hold a static token. */
const MODE_ACCEPTS: Readonly<Record<ProfileConfig["mode"], readonly CredentialType[]>> = {
  api_key: ["api_key"],
  oauth: ["oauth", "token"],
  token: ["token"],
};

function nonEmptyList(list: readonly string[] | undefined): readonly string[] | undefined {
  return list && list.length > 0 ? list : undefined;
}

/**
 * R-PO-1 base list. An empty list counts as absent: an operator who clears an order (or configures
 * profiles only for other providers) means "use the default", not "use nothing".
 */
function baseList(input: OrderProfilesInput): { ids: readonly string[]; explicit: boolean } {
  const explicitOrder = nonEmptyList(input.storedOrder) ?? nonEmptyList(input.configuredOrder);
  if (explicitOrder) return { ids: explicitOrder, explicit: true };
  const configured = Object.entries(input.configuredProfiles ?? {})
    .filter(([, profile]) => profile.provider === input.provider)
    .map(([id]) => id);
  if (configured.length > 0) return { ids: configured, explicit: false };
  const stored = input.profiles.filter((profile) => profile.credential?.provider === input.provider).map((p) => p.id);
  return { ids: stored, explicit: false };
}

function isBlank(value: string | undefined): boolean {
  return value === undefined || value.trim() === "";
}

/** Why a profile cannot be offered at all (R-PO-1), or undefined when it can. */
function dropReason(
  provider: string,
  credential: Credential | undefined,
  config: ProfileConfig | undefined,
  now: number,
): string | undefined {
  // R-AP-2: say which variable to set, not just that something is missing.
  if (!credential) return config?.keyRef ? `environment variable ${config.keyRef.env} is not set` : "missing credential";
  if (credential.provider !== provider || (config && config.provider !== provider)) {
    const owner = config && config.provider !== provider ? config.provider : credential.provider;
    return `provider mismatch (belongs to ${owner})`;
  }
  if (config && !MODE_ACCEPTS[config.mode].includes(credential.type)) {
    return `configured mode ${config.mode} does not match the stored ${credential.type} credential`;
  }
  switch (credential.type) {
    case "api_key":
      return isBlank(credential.key) ? "empty key" : undefined;
    case "token":
      if (isBlank(credential.token)) return "empty token";
      return typeof credential.expires === "number" && credential.expires <= now ? "expired token" : undefined;
    case "oauth":
      return isBlank(credential.access) && isBlank(credential.refresh)
        ? "oauth credential has neither an access nor a refresh token"
        : undefined;
  }
}

export function orderProfiles(input: OrderProfilesInput): OrderProfilesResult {
  const { ids, explicit } = baseList(input);
  const credentials = new Map(input.profiles.map((profile) => [profile.id, profile.credential]));

  const candidates: { id: string; credential: Credential; index: number }[] = [];
  const dropped: { id: string; why: string }[] = [];
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) continue;
    seen.add(id);
    const credential = credentials.get(id);
    const why = dropReason(input.provider, credential, input.configuredProfiles?.[id], input.now);
    if (why !== undefined || !credential) dropped.push({ id, why: why ?? "missing credential" });
    else candidates.push({ id, credential, index: candidates.length });
  }

  const clearedStats: Record<string, UsageStats> = {};
  const statsOf = new Map<string, UsageStats | undefined>();
  for (const { id } of candidates) {
    const stats = input.usageStats[id];
    const cleared = stats ? clearExpired(stats, input.now) : undefined;
    if (stats && cleared && cleared !== stats) clearedStats[id] = cleared;
    statsOf.set(id, cleared);
  }

  const usableCandidates = candidates.filter(({ id }) => isUsable(statsOf.get(id), input.model, input.now));
  const unusableCandidates = candidates.filter(({ id }) => !isUsable(statsOf.get(id), input.model, input.now));

  const byRoundRobin = (a: (typeof candidates)[number], b: (typeof candidates)[number]): number =>
    // R-PO-3: type first, then least recently used; never used sorts before any timestamp.
    TYPE_RANK[a.credential.type] - TYPE_RANK[b.credential.type] ||
    (statsOf.get(a.id)?.lastUsed ?? -Infinity) - (statsOf.get(b.id)?.lastUsed ?? -Infinity) ||
    a.index - b.index;
  if (!explicit) usableCandidates.sort(byRoundRobin);
  const withoutHeadroom = usableCandidates.map(({ id }) => id);

  const headroom = input.headroom ? assessProfiles(withoutHeadroom, input.headroom, { model: input.model, now: input.now }) : {};
  if (input.headroom && !explicit) {
    // R-PO-7: the strategy ranks right after the credential type; an explicit order is the operator's own.
    const settings = input.headroom.settings;
    usableCandidates.sort(
      (a, b) =>
        TYPE_RANK[a.credential.type] - TYPE_RANK[b.credential.type] ||
        strategyKey(headroom[a.id], settings) - strategyKey(headroom[b.id], settings) ||
        byRoundRobin(a, b),
    );
  }
  const steered = moveNearlySpentLast(
    usableCandidates.map(({ id }) => id),
    headroom,
    withoutHeadroom,
  );
  // R-PO-2 / R-PO-3: unusable profiles go last, the one that recovers first leading.
  const expiry = (id: string): number => unusableUntil(statsOf.get(id), input.model, input.now) ?? input.now;
  unusableCandidates.sort((a, b) => expiry(a.id) - expiry(b.id) || a.index - b.index);

  const usable = steered.ordered;
  const unusable = unusableCandidates.map(({ id }) => id);
  return {
    ordered: [...usable, ...unusable],
    usable,
    unusable,
    explicit,
    dropped,
    clearedStats,
    headroom,
    nearlySpent: steered.nearlySpent,
    passedOver: steered.passedOver,
  };
}
