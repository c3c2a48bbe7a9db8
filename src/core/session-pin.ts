/**
 * Session pin of an auth profile (SPEC R-PO-5, R-PO-6, R-PO-7): which profile a session prefers for this
 * provider, whether that preference is strict, and which pin fields to persist.
 * A session keeps one pin per provider: `authProfileOverride` holds the pin of the provider it ran on last,
 * and a turn on another provider parks it in `authProfilePinsByProvider` (and takes that provider's parked pin
 * back), so one request naming an Anthropic model does not end the stickiness of the OpenAI pin.
 */
import type { SessionOverrides, StoredProfilePin } from "./types.js";

export interface ResolveSessionPinInput {
  session?: SessionOverrides & { compactionCount?: number };
  provider: string;
  /** orderProfiles(...).ordered for this provider. */
  ordered: readonly string[];
  /** orderProfiles(...).usable for this provider. */
  usable: readonly string[];
  /** Provider of every profile that still exists. */
  profileProviders: Readonly<Record<string, string>>;
  /** orderProfiles(...).nearlySpent (R-PO-7): an auto pin moves off these before the turn. */
  nearlySpent?: readonly string[];
}

export interface PinWrite {
  authProfileOverride?: string;
  authProfileOverrideSource?: "auto" | "user";
  authProfileOverrideCompactionCount?: number;
  /** Written when the pin of another provider is parked or this provider's is taken back (`undefined` = none left). */
  authProfilePinsByProvider?: Readonly<Record<string, StoredProfilePin>> | undefined;
}

export interface ResolveSessionPinResult {
  /** Try this profile first; undefined when the session has no usable preference. */
  pinnedProfileId?: string;
  /** A user pin: never rotate away from it (R-PO-6). */
  strict: boolean;
  /** Pin fields to persist; "clear" removes all of them; undefined leaves the session as it is. */
  write?: PinWrite | "clear";
  /** R-PO-7: the auto pin left a nearly spent profile for one with headroom, before any attempt. */
  headroomMove?: { from: string; to: string };
}

/**
 * Sessions written before `authProfileOverrideSource` existed: only the router's auto pins ever stored a
 * compaction count, so a count marks an auto pin; anything else is treated as the user's explicit choice,
 * as R-CH-2 does for legacy model overrides, so an old explicit pin never silently starts rotating.
 */
function pinSource(session: SessionOverrides): "auto" | "user" {
  if (session.authProfileOverrideSource) return session.authProfileOverrideSource;
  return typeof session.authProfileOverrideCompactionCount === "number" ? "auto" : "user";
}

/**
 * The next usable profile after `current` in order, wrapping around; one with headroom before a nearly
 * spent one (R-PO-7); `current` itself only as a last resort.
 */
function nextUsableAfter(
  current: string,
  ordered: readonly string[],
  usable: ReadonlySet<string>,
  nearlySpent: ReadonlySet<string>,
): string | undefined {
  const start = ordered.indexOf(current);
  const after = (accept: (id: string) => boolean): string | undefined => {
    for (let offset = 1; offset <= ordered.length; offset += 1) {
      const id = ordered[(start + offset) % ordered.length];
      if (id !== undefined && id !== current && usable.has(id) && accept(id)) return id;
    }
    return undefined;
  };
  return after((id) => !nearlySpent.has(id)) ?? after(() => true) ?? (usable.has(current) ? current : undefined);
}

function autoPin(profileId: string, compactionCount: number): ResolveSessionPinResult {
  return {
    pinnedProfileId: profileId,
    strict: false,
    write: {
      authProfileOverride: profileId,
      authProfileOverrideSource: "auto",
      authProfileOverrideCompactionCount: compactionCount,
    },
  };
}

/**
 * The provider a pinned profile belongs to: known from this provider's profiles, else from its id
 * (`provider:name`); undefined for an id of neither form.
 */
function providerOfPin(profileId: string, profileProviders: Readonly<Record<string, string>>): string | undefined {
  const known = profileProviders[profileId];
  if (known !== undefined) return known;
  const colon = profileId.indexOf(":");
  return colon > 0 ? profileId.slice(0, colon) : undefined;
}

/** Parked pins keyed in sorted order (stores compare the value as JSON); undefined when none is left. */
function sortedPins(pins: Record<string, StoredProfilePin>): Record<string, StoredProfilePin> | undefined {
  const keys = Object.keys(pins).sort();
  return keys.length > 0 ? Object.fromEntries(keys.map((key) => [key, pins[key] as StoredProfilePin])) : undefined;
}

export function resolveSessionPin(input: ResolveSessionPinInput): ResolveSessionPinResult {
  const session = input.session ?? {};
  const pin = session.authProfileOverride;
  const pinProvider = pin ? providerOfPin(pin, input.profileProviders) : undefined;
  if (pin && pinProvider === input.provider && input.profileProviders[pin] === input.provider) {
    return resolveProviderPin(input, {
      profileId: pin,
      source: pinSource(session),
      compactionCount: session.authProfileOverrideCompactionCount,
    });
  }

  // The current pin belongs to another provider (park it) or is gone (drop it); this provider's own pin, if
  // it was parked, becomes the current one again.
  const parked = { ...(session.authProfilePinsByProvider ?? {}) };
  const own = parked[input.provider];
  delete parked[input.provider];
  if (pin && pinProvider !== undefined && pinProvider !== input.provider) {
    parked[pinProvider] = {
      profileId: pin,
      source: pinSource(session),
      ...(session.authProfileOverrideCompactionCount !== undefined ? { compactionCount: session.authProfileOverrideCompactionCount } : {}),
    };
  }
  const ownStillValid = own !== undefined && input.profileProviders[own.profileId] === input.provider;
  const result = ownStillValid ? resolveProviderPin(input, own) : resolveProviderPin(input, undefined);
  const chosen = result.write && result.write !== "clear" ? result.write : undefined;
  const keptAsIs =
    chosen === undefined && result.pinnedProfileId !== undefined && own !== undefined
      ? {
          authProfileOverride: own.profileId,
          authProfileOverrideSource: own.source,
          authProfileOverrideCompactionCount: own.compactionCount,
        }
      : undefined;
  const current = chosen ?? keptAsIs;
  const authProfilePinsByProvider = sortedPins(parked);
  const parkedChanged = JSON.stringify(authProfilePinsByProvider) !== JSON.stringify(session.authProfilePinsByProvider);
  if (current !== undefined) return { ...result, write: { ...current, authProfilePinsByProvider } };
  // Nothing usable for this provider: the current pin stays where it is, to be parked by a run that pins one.
  if (pin && pinProvider !== undefined && pinProvider !== input.provider) return { strict: result.strict };
  if (result.write === "clear" && !parkedChanged) return result;
  if (result.write === "clear" || (pin && parkedChanged)) {
    return {
      strict: result.strict,
      write: {
        authProfileOverride: undefined,
        authProfileOverrideSource: undefined,
        authProfileOverrideCompactionCount: undefined,
        authProfilePinsByProvider,
      },
    };
  }
  return result;
}

/** R-PO-5…R-PO-7 for this provider's own pin (`undefined`: the session has none for it yet). */
function resolveProviderPin(input: ResolveSessionPinInput, pin: StoredProfilePin | undefined): ResolveSessionPinResult {
  const compactionCount = input.session?.compactionCount ?? 0;
  const usable = new Set(input.usable);
  const nearlySpent = new Set(input.nearlySpent ?? []);

  if (pin) {
    if (pin.source === "user") return { pinnedProfileId: pin.profileId, strict: true };

    const compacted = compactionCount > (pin.compactionCount ?? 0);
    if (!compacted && usable.has(pin.profileId)) {
      if (!nearlySpent.has(pin.profileId)) return { pinnedProfileId: pin.profileId, strict: false };
      // R-PO-7: leave a nearly spent profile before the turn, not after its 429 — when another has room.
      const roomy = nextUsableAfter(pin.profileId, input.ordered, usable, nearlySpent);
      if (roomy === undefined || nearlySpent.has(roomy) || roomy === pin.profileId)
        return { pinnedProfileId: pin.profileId, strict: false };
      return { ...autoPin(roomy, compactionCount), headroomMove: { from: pin.profileId, to: roomy } };
    }

    const next = nextUsableAfter(pin.profileId, input.ordered, usable, nearlySpent);
    // Nothing is usable: keep the stored pin so a later run can return to it once it recovers.
    return next === undefined ? { strict: false } : autoPin(next, compactionCount);
  }

  // A session with no pin for this provider (or whose pin was dropped because the profile is gone) is pinned
  // on this run: the seeds say OpenClaw "pins the selected auth profile per session" to keep provider caches
  // warm, the auto pin being the one "selected by the session router" (seeds/000 "セッションのスティッキネス",
  // seeds/002 "Sitzungshaftung"). The first usable profile in order is it.
  const first = input.ordered.find((id) => usable.has(id));
  if (first !== undefined) return autoPin(first, compactionCount);
  return input.session?.authProfileOverride ? { strict: false, write: "clear" } : { strict: false };
}
