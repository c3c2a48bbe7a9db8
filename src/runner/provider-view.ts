/**
 * One provider's profiles as the runner sees them at one moment: ordered (R-PO-1…R-PO-4, R-PO-7) with their
 * stats and headroom. Expired windows found while ordering are cleared in the store too (R-PO-4), atomically
 * per profile.
 */
import type { ProfileHeadroom } from "../core/headroom/assess.js";
import { isFresh, type HeadroomReading } from "../core/headroom/reading.js";
import { orderProfiles } from "../core/order-profiles.js";
import type { Credential, ModelRef, UsageStats } from "../core/types.js";
import type { ProviderInputs } from "./decision-snapshot.js";
import type { RunnerDeps } from "./runner-deps.js";

export interface ProviderView {
  provider: string;
  model: string;
  ordered: string[];
  usable: string[];
  unusable: string[];
  dropped: { id: string; why: string }[];
  stats: Record<string, UsageStats | undefined>;
  credentials: ReadonlyMap<string, Credential>;
  /** Provider of every known profile (for session pins, R-PO-5). */
  profileProviders: Record<string, string>;
  /** No profile names this provider at all: it runs once without a credential (R-RN-1). */
  keyless: boolean;
  /** R-PO-7: what fresh rate-limit readings say per profile (only profiles with one). */
  headroom: Record<string, ProfileHeadroom>;
  /** R-PO-7: usable but nearly spent (at the end of `usable`). */
  nearlySpent: string[];
  /** R-PO-7: nearly spent profiles the order without headroom would have tried first. */
  passedOver: string[];
}

export async function loadProviderView(
  deps: Pick<RunnerDeps, "store" | "profiles" | "snapshot"> & { settings?: Pick<RunnerDeps["settings"], "headroom"> },
  ref: ModelRef,
  now: number,
): Promise<ProviderView> {
  const headroomSettings = deps.settings?.headroom;
  const inputs = deps.snapshot?.current(ref.provider) ?? (await readInputs(deps, ref.provider, now, headroomSettings !== undefined));
  const { source, profileProviders, credentials } = inputs;
  // The snapshot's record is shared: this view amends its own copy (R-PO-4 clears below).
  const stats: Record<string, UsageStats | undefined> = { ...inputs.stats };
  const readings = inputs.readings && freshReadings(inputs.readings, now);

  const order = orderProfiles({
    provider: ref.provider,
    model: ref.model,
    now,
    storedOrder: source.storedOrder,
    configuredOrder: source.configuredOrder,
    configuredProfiles: source.configuredProfiles,
    profiles: source.profiles,
    usageStats: stats,
    ...(headroomSettings && readings ? { headroom: { readings, settings: headroomSettings } } : {}),
  });
  await Promise.all(Object.keys(order.clearedStats).map(async (id) => void (stats[id] = await deps.store.clearExpired(id, now))));

  return {
    provider: ref.provider,
    model: ref.model,
    ordered: order.ordered,
    usable: order.usable,
    unusable: order.unusable,
    dropped: order.dropped,
    stats,
    credentials,
    profileProviders,
    keyless: order.ordered.length === 0 && order.dropped.length === 0,
    headroom: order.headroom,
    nearlySpent: order.nearlySpent,
    passedOver: order.passedOver,
  };
}

/** One provider's decision inputs from the store, kept in the snapshot when nothing changed meanwhile. */
async function readInputs(
  deps: Pick<RunnerDeps, "store" | "profiles" | "snapshot">,
  provider: string,
  now: number,
  withHeadroom: boolean,
): Promise<ProviderInputs> {
  const readAt = deps.snapshot?.stamp();
  const source = await deps.profiles.forProvider(provider);
  const profileProviders: Record<string, string> = {};
  const credentials = new Map<string, Credential>();
  for (const profile of source.profiles) {
    const owner = profile.credential?.provider ?? source.configuredProfiles?.[profile.id]?.provider;
    if (owner) profileProviders[profile.id] = owner;
    if (profile.credential) credentials.set(profile.id, profile.credential);
  }
  for (const [id, config] of Object.entries(source.configuredProfiles ?? {})) {
    profileProviders[id] ??= config.provider;
  }

  const ids = [
    ...new Set<string>([...source.profiles.map((profile) => profile.id), ...(source.storedOrder ?? []), ...(source.configuredOrder ?? [])]),
  ];
  const stats: Record<string, UsageStats | undefined> = {};
  const [readings] = await Promise.all([
    withHeadroom ? deps.store.headroomReadings(ids, now) : Promise.resolve(undefined),
    ...ids.map(async (id) => void (stats[id] = await deps.store.getUsageStats(id))),
  ]);
  const inputs: ProviderInputs = { source, profileProviders, credentials, ids, stats, ...(readings ? { readings } : {}) };
  deps.snapshot?.keep(provider, inputs, readAt);
  return inputs;
}

/** R-PO-7: readings past their reset are ignored, whenever they were read. */
function freshReadings(readings: Readonly<Record<string, readonly HeadroomReading[]>>, now: number): Record<string, HeadroomReading[]> {
  const fresh: Record<string, HeadroomReading[]> = {};
  for (const id in readings) {
    const kept = (readings[id] as readonly HeadroomReading[]).filter((reading) => isFresh(reading, now));
    if (kept.length > 0) fresh[id] = kept;
  }
  return fresh;
}
