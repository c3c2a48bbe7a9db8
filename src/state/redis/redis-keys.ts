/**
 * Key layout of the Redis backend. Every key of one agent lives under `<prefix>:{<agentId>}:` — the braces
 * are a Redis Cluster hash tag, so all keys a Lua script touches hash to one slot.
 */
export interface RedisKeys {
  /** `keyCheck` (R-SB-4) and `epoch` (detects a Redis that lost its data, R-SB-3). */
  meta: string;
  /**
   * The key check of the whole prefix, shared by every agent: a replica whose key differs is refused when its
   * first store connects, whichever agents the other replicas used.
   */
  sharedKeyCheck: string;
  /** id → `{ provider, type, secret }` with the credential sealed by AES-256-GCM. */
  profiles: string;
  /** provider → JSON array of profile ids. */
  order: string;
  /** provider → profile id. */
  lastGood: string;
  /** profile id → usage stats JSON without `lastUsed`. */
  stats: string;
  /** profile id → `lastUsed` (kept apart so `markUsed` never rewrites a window). */
  lastUsed: string;
  /** Set of session keys, for listing. */
  sessionIndex: string;
  /** Sorted set: session key scored by when it was last written (R-GW-8 idle pruning). */
  sessionTouched: string;
  session(sessionKey: string): string;
  probe(probeKey: string): string;
  /** Hash of one profile's headroom readings (R-PO-7): slot (`model|window`) → reading JSON. */
  headroom(profileId: string): string;
  /** Hash of one hour's spend (R-GW-7): profile id → dollars; expires when the hour leaves the 24-hour window. */
  spend(hour: number): string;
  /** Sorted set of one profile's seats (R-PO-8): seat id scored by when its lease runs out. */
  seats(profileId: string): string;
  /** Every key of this namespace matches this pattern (tests and `detour doctor`). */
  pattern: string;
}

export function redisKeys(keyPrefix: string, agentId: string): RedisKeys {
  const namespace = `${keyPrefix}:{${agentId}}`;
  return {
    meta: `${namespace}:meta`,
    sharedKeyCheck: `${keyPrefix}:key-check`,
    profiles: `${namespace}:profiles`,
    order: `${namespace}:order`,
    lastGood: `${namespace}:last-good`,
    stats: `${namespace}:stats`,
    lastUsed: `${namespace}:last-used`,
    sessionIndex: `${namespace}:sessions`,
    sessionTouched: `${namespace}:session-touched`,
    session: (sessionKey) => `${namespace}:session:${sessionKey}`,
    probe: (probeKey) => `${namespace}:probe:${probeKey}`,
    headroom: (profileId) => `${namespace}:headroom:${profileId}`,
    spend: (hour) => `${namespace}:spend:${hour}`,
    seats: (profileId) => `${namespace}:seats:${profileId}`,
    pattern: `${namespace}:*`,
  };
}
