/**
 * Seats on Redis (R-PO-8), shared by every replica: one sorted set per profile, seat id scored by when its
 * lease runs out. Claims and renewals are Lua scripts — Redis runs a script with no other command in
 * between — so replicas claiming at the same moment can never take more seats than the limit. Each script
 * first drops the profile's expired seats, so a dead replica's seats free themselves; the whole key also
 * expires once its longest lease has, so an idle profile leaves nothing behind.
 *
 * Scores are the caller's clock (a fake one in tests); key lifetimes are relative, in Redis's own time.
 */
import { createHash, randomUUID } from "node:crypto";
import { createClient } from "@redis/client";
import type { Seat, SeatClaim, SeatsStore } from "../../ports/seats-store.js";
import { backgroundClock } from "../shared/background-clock.js";
import { assertSafeAgentId } from "../shared/agent-id.js";
import { type LuaScript, runScript } from "./lua-scripts.js";
import { redisKeys } from "./redis-keys.js";
import { type RedisClient, redisReconnectDelay } from "./redis-connection.js";
import { REDIS_COMMAND_TIMEOUT_MS, REDIS_CONNECT_TIMEOUT_MS } from "./redis-timeouts.js";
import { RedisUnansweredError, withDeadline } from "./outage.js";

function script(name: string, source: string): LuaScript {
  return { name, source, sha1: createHash("sha1").update(source).digest("hex") };
}

/** Keeps the key alive at least `ttl` ms more (never shortens it for a longer lease held by someone else). */
const EXTEND_KEY_LIFE = `
local function keepFor(key, ttl)
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
end
`;

/**
 * KEYS: the profile's seats. ARGV: now, limit, seatId, expiresAt, leaseMs.
 * Returns 1 when the seat was taken, 0 when the profile is full.
 */
const ACQUIRE_SEAT = script(
  "acquire-seat",
  `${EXTEND_KEY_LIFE}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
keepFor(KEYS[1], tonumber(ARGV[5]))
return 1
`,
);

/**
 * KEYS: the profile's seats. ARGV: now, seatId, expiresAt, leaseMs.
 * Returns 1 when the live seat was extended, 0 when it is gone or its lease had run out.
 */
const RENEW_SEAT = script(
  "renew-seat",
  `${EXTEND_KEY_LIFE}
local expiresAt = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[2]) or '')
if expiresAt == nil then return 0 end
if expiresAt <= tonumber(ARGV[1]) then
  redis.call('ZREM', KEYS[1], ARGV[2])
  return 0
end
redis.call('ZADD', KEYS[1], 'XX', ARGV[3], ARGV[2])
keepFor(KEYS[1], tonumber(ARGV[4]))
return 1
`,
);

export interface RedisSeatsOptions {
  url: string;
  keyPrefix: string;
  agentId: string;
  /** Default: the state store's (`REDIS_CONNECT_TIMEOUT_MS`). */
  connectTimeoutMs?: number;
  /** Default: the state store's (`REDIS_COMMAND_TIMEOUT_MS`). */
  commandTimeoutMs?: number;
}

export class RedisSeats implements SeatsStore {
  readonly #client: RedisClient;
  readonly #keyOf: (profileId: string) => string;
  /** Only a client this object connected is closed by it; a borrowed one belongs to its lender. */
  readonly #ownsClient: boolean;
  readonly #commandTimeoutMs: number;

  constructor(client: RedisClient, keyPrefix: string, agentId: string, ownsClient = false, commandTimeoutMs = REDIS_COMMAND_TIMEOUT_MS) {
    assertSafeAgentId(agentId);
    this.#client = client;
    this.#keyOf = redisKeys(keyPrefix, agentId).seats;
    this.#ownsClient = ownsClient;
    this.#commandTimeoutMs = commandTimeoutMs;
  }

  /**
   * Connects with the state store's timeouts: a Redis that does not answer fails the seat operation within
   * the command timeout (the runner then lets the attempt run without a seat) instead of holding requests.
   */
  static async connect(options: RedisSeatsOptions): Promise<RedisSeats> {
    const connectTimeoutMs = options.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS;
    const commandTimeoutMs = options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS;
    const client: RedisClient = createClient({
      url: options.url,
      // Fail fast while disconnected instead of queueing commands behind a reconnect.
      disableOfflineQueue: true,
      // Every seat command already has its deadline (#deadline); the client's own per-command timeout is an
      // AbortSignal.timeout that is never cancelled and fires after each command, which cost more CPU than
      // the seat's whole round trip. 0 turns it off.
      commandOptions: { timeout: 0 },
      pingInterval: commandTimeoutMs,
      socket: {
        connectTimeout: connectTimeoutMs,
        socketTimeout: commandTimeoutMs * 3,
        reconnectStrategy: redisReconnectDelay,
      },
    });
    // Failures surface on the commands themselves; without a listener an 'error' event would crash the process.
    client.on("error", () => {});
    const connected = client.connect().then(
      () => true,
      () => false,
    );
    if (!(await Promise.race([connected, backgroundClock.sleep(connectTimeoutMs).then(() => false)]))) {
      client.destroy();
      throw new RedisUnansweredError(connectTimeoutMs);
    }
    return new RedisSeats(client, options.keyPrefix, options.agentId, true, commandTimeoutMs);
  }

  async tryAcquire(claim: SeatClaim): Promise<Seat | undefined> {
    const seatId = randomUUID();
    const expiresAt = claim.now + claim.leaseMs;
    const taken = await this.#run(ACQUIRE_SEAT, claim.profileId, [claim.now, claim.limit, seatId, expiresAt, claim.leaseMs]);
    return Number(taken) === 1 ? { profileId: claim.profileId, seatId, expiresAt } : undefined;
  }

  async renew(seat: Seat, now: number, leaseMs: number): Promise<Seat | undefined> {
    const expiresAt = now + leaseMs;
    const renewed = await this.#run(RENEW_SEAT, seat.profileId, [now, seat.seatId, expiresAt, leaseMs]);
    return Number(renewed) === 1 ? { ...seat, expiresAt } : undefined;
  }

  async release(seat: Seat): Promise<void> {
    await this.#deadline(this.#client.zRem(this.#keyOf(seat.profileId), seat.seatId));
  }

  async inFlight(profileIds: readonly string[], now: number): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    if (profileIds.length === 0) return counts;
    const batch = this.#client.multi();
    // "(" makes the bound exclusive: a seat whose lease ends exactly now is no longer held.
    for (const id of profileIds) batch.zCount(this.#keyOf(id), `(${now}`, "+inf");
    const held = (await this.#deadline(batch.exec())) as unknown as number[];
    profileIds.forEach((id, index) => {
      counts[id] = Number(held[index] ?? 0);
    });
    return counts;
  }

  async close(): Promise<void> {
    if (this.#ownsClient && this.#client.isOpen) await this.#client.close();
  }

  #run(lua: LuaScript, profileId: string, args: (string | number)[]): Promise<unknown> {
    return this.#deadline(runScript(this.#client as unknown as Parameters<typeof runScript>[0], lua, [this.#keyOf(profileId)], args));
  }

  /** A command without an answer within the command timeout fails (the state store's rule too). */
  #deadline<T>(command: Promise<T>): Promise<T> {
    return withDeadline(this.#commandTimeoutMs, () => command);
  }
}
