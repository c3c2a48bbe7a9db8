/**
 * Server-side scripts of the Redis backend. Redis runs a script atomically: no other command interleaves,
 * which is what makes these compare-and-set steps safe across replicas (R-SB-1, R-SB-2).
 *
 * Absent values travel as the empty string (no stored JSON value is ever empty).
 */
import { createHash } from "node:crypto";

export interface LuaScript {
  name: string;
  source: string;
  sha1: string;
}

function script(name: string, source: string): LuaScript {
  return { name, source, sha1: createHash("sha1").update(source).digest("hex") };
}

/**
 * Usage stats compare-and-set. The stats were read and the pure `core/cooldown.ts` function computed the
 * next value in the process; this writes it only if the stored value is still byte-for-byte what was read.
 * The stored value is its own version: equal bytes mean equal stats, so a result computed from them is still
 * correct even if the value changed and changed back (ABA is harmless here).
 * On a conflict it answers with what is stored, so the caller recomputes without another read; a value or
 * lastGood entry that would not change is not rewritten (a healthy profile's success writes only lastUsed).
 * KEYS: stats, lastUsed, lastGood. ARGV: profileId, expected, next ('' deletes), lastUsedMode
 * ('keep' | 'set' | 'delete'), lastUsed, lastGoodProvider ('' = none).
 * Returns { 1 } when written, { 0, stored stats ('' = none), stored lastUsed ('' = none) } on conflict.
 */
export const CAS_STATS = script(
  "cas-stats-answering",
  `
local current = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if current ~= ARGV[2] then return { 0, current, redis.call('HGET', KEYS[2], ARGV[1]) or '' } end
if ARGV[3] ~= current then
  if ARGV[3] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) end
end
if ARGV[4] == 'set' then redis.call('HSET', KEYS[2], ARGV[1], ARGV[5])
elseif ARGV[4] == 'delete' then redis.call('HDEL', KEYS[2], ARGV[1]) end
if ARGV[6] ~= '' and redis.call('HGET', KEYS[3], ARGV[6]) ~= ARGV[1] then redis.call('HSET', KEYS[3], ARGV[6], ARGV[1]) end
return { 1 }
`,
);

/**
 * Writes stats verbatim (imports, R-AP-6). KEYS: stats, lastUsed. ARGV: profileId, stats JSON ('' deletes),
 * lastUsed ('' deletes).
 */
export const PUT_STATS = script(
  "put-stats",
  `
if ARGV[2] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
if ARGV[3] == '' then redis.call('HDEL', KEYS[2], ARGV[1]) else redis.call('HSET', KEYS[2], ARGV[1], ARGV[3]) end
return 1
`,
);

/** markUsed: moves lastUsed forward only (replicas may report out of order). KEYS: lastUsed. ARGV: id, now. */
export const BUMP_LAST_USED = script(
  "bump-last-used",
  `
local current = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '')
if current == nil or tonumber(ARGV[2]) > current then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
return 1
`,
);

/**
 * Session compare-and-set (R-SO-2), group-atomic (R-SB-6): the writes of one group all apply or none does.
 * Groups never share a field, so each is checked against the stored values on its own, its writes in order.
 * KEYS: session hash, session index, session write times. ARGV: sessionKey, JSON(sessionKey), now, then
 * (field, expected, value, group) quadruples. Returns { applied flags as '0'/'1' string, HGETALL }.
 */
export const CAS_SESSION = script(
  "cas-session-grouped",
  `
local work = {}
local groupOf = {}
local failed = {}
for i = 4, #ARGV, 4 do
  local field, group = ARGV[i], ARGV[i + 3]
  groupOf[field] = group
  if work[field] == nil then work[field] = redis.call('HGET', KEYS[1], field) or '' end
  if not failed[group] then
    if work[field] == ARGV[i + 1] then work[field] = ARGV[i + 2] else failed[group] = true end
  end
end
local flags = {}
local any = false
for i = 4, #ARGV, 4 do
  if failed[ARGV[i + 3]] then flags[#flags + 1] = '0' else flags[#flags + 1] = '1'; any = true end
end
for field, value in pairs(work) do
  if not failed[groupOf[field]] then
    if value == '' then redis.call('HDEL', KEYS[1], field) else redis.call('HSET', KEYS[1], field, value) end
  end
end
if any then
  redis.call('HSET', KEYS[1], 'sessionKey', ARGV[2])
  redis.call('SADD', KEYS[2], ARGV[1])
  redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
end
return { table.concat(flags), redis.call('HGETALL', KEYS[1]) }
`,
);

/**
 * Unconditional session merge. KEYS: session hash, session index, session write times. ARGV: sessionKey,
 * JSON(sessionKey), now, then (field, value) pairs, '' deleting. Returns HGETALL of the session.
 */
export const PATCH_SESSION = script(
  "patch-session-touched",
  `
for i = 4, #ARGV, 2 do
  if ARGV[i + 1] == '' then redis.call('HDEL', KEYS[1], ARGV[i]) else redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
redis.call('HSET', KEYS[1], 'sessionKey', ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
return redis.call('HGETALL', KEYS[1])
`,
);

/** KEYS: session hash, session index, session write times. ARGV: sessionKey. Returns 1 when it existed. */
export const DELETE_SESSION = script(
  "delete-session-touched",
  `
redis.call('SREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return redis.call('DEL', KEYS[1])
`,
);

/**
 * R-GW-8: deletes a session only if it was still not written since the cutoff (a write that raced the
 * prune's listing wins). KEYS: session hash, session index, session write times. ARGV: sessionKey, cutoff.
 * Returns 1 when deleted.
 */
export const DELETE_IDLE_SESSION = script(
  "delete-idle-session",
  `
local touched = tonumber(redis.call('ZSCORE', KEYS[3], ARGV[1]) or '')
if touched ~= nil and touched >= tonumber(ARGV[2]) then return 0 end
redis.call('SREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return redis.call('DEL', KEYS[1])
`,
);

/**
 * Sessions written before write times were kept get one now, so they age from today instead of never.
 * KEYS: session index, session write times. ARGV: now. Returns how many were adopted.
 */
export const ADOPT_UNTIMED_SESSIONS = script(
  "adopt-untimed-sessions",
  `
local adopted = 0
for _, key in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  adopted = adopted + redis.call('ZADD', KEYS[2], 'NX', ARGV[1], key)
end
return adopted
`,
);

/**
 * Probe slot takeover when `SET NX PX` found a claim: the caller's clock decides whether the interval has
 * passed (an injected clock may run ahead of Redis's expiry). KEYS: probe key. ARGV: now, intervalMs, the
 * expiry in ms.
 */
export const TAKE_OVER_PROBE = script(
  "take-over-probe",
  `
local last = tonumber(redis.call('GET', KEYS[1]) or '')
if last ~= nil and tonumber(ARGV[1]) - last < tonumber(ARGV[2]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return 1
`,
);

/**
 * Removes a profile with its stats, its stored-order entries and its lastGood entries.
 * KEYS: profiles, stats, lastUsed, order, lastGood. ARGV: profileId. Returns 1 when the profile existed.
 */
export const REMOVE_PROFILE = script(
  "remove-profile",
  `
local existed = redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
local orders = redis.call('HGETALL', KEYS[4])
for i = 1, #orders, 2 do
  local kept = {}
  local changed = false
  for _, id in ipairs(cjson.decode(orders[i + 1])) do
    if id == ARGV[1] then changed = true else kept[#kept + 1] = id end
  end
  if changed then
    if #kept == 0 then redis.call('HSET', KEYS[4], orders[i], '[]')
    else redis.call('HSET', KEYS[4], orders[i], cjson.encode(kept)) end
  end
end
local good = redis.call('HGETALL', KEYS[5])
for i = 1, #good, 2 do
  if good[i + 1] == ARGV[1] then redis.call('HDEL', KEYS[5], good[i]) end
end
return existed
`,
);

/** The subset of the client a script needs; keeps this file free of the client's generic types. */
export interface ScriptClient {
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  eval(source: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** Runs a script by its hash and falls back to sending it when the server does not know it (e.g. after a restart). */
export async function runScript(client: ScriptClient, lua: LuaScript, keys: string[], args: (string | number)[]): Promise<unknown> {
  const options = { keys, arguments: args.map(String) };
  try {
    return await client.evalSha(lua.sha1, options);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("NOSCRIPT")) return client.eval(lua.source, options);
    throw error;
  }
}
