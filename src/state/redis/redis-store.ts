/**
 * The Redis backend (SPEC §16): several gateway replicas share profiles, usage stats, sessions and probe
 * throttles through one Redis, with every update atomic server-side. One facet per file (profiles, usage
 * stats, sessions, probes, headroom, spend), each with its Redis half (`Remote…`, gathered in
 * redis-remote.ts) and its routed half; redis-link.ts keeps serving from a local view through an outage
 * (R-SB-3). This class connects and composes them.
 */
import { FacetedStateStore, type StoreFacets } from "../shared/faceted-store.js";
import { createClient } from "@redis/client";
import type { Clock } from "../../ports/clock.js";
import { type Logger, silentLogger } from "../../ports/events.js";
import type { Random } from "../../ports/random.js";
import type { StateStore } from "../../ports/state-store.js";
import { systemClock } from "../../ports/system-clock.js";
import { cryptoRandom } from "../../ports/system-random.js";
import { type SecretKey, SecretBox } from "../secrets.js";
import { backgroundClock } from "../shared/background-clock.js";
import { type SessionRetention, SessionPruner } from "../shared/session-retention.js";
import { assertSafeAgentId } from "../shared/agent-id.js";
import { SecretKeyNotSharedError } from "../state-errors.js";
import { RedisHeadroom } from "./headroom.js";
import { redactUrl } from "./outage.js";
import { RedisProbes } from "./probes.js";
import { RedisProfiles } from "./profiles.js";
import { type RedisClient, RedisConnection, redisReconnectDelay } from "./redis-connection.js";
import { redisKeys } from "./redis-keys.js";
import { RedisLink, type RedisStoreMode } from "./redis-link.js";
import { RemoteRedisState } from "./redis-remote.js";
import { RedisSessions } from "./sessions.js";
import { RedisSpend } from "./spend.js";
import { RedisUsageStats } from "./usage-stats.js";
import { REDIS_COMMAND_TIMEOUT_MS, REDIS_CONNECT_TIMEOUT_MS } from "./redis-timeouts.js";

export type { RedisStoreMode } from "./redis-link.js";

export interface RedisStateStoreOptions {
  url: string;
  keyPrefix: string;
  agentId: string;
  secretKey: SecretKey;
  logger?: Logger;
  /** How long `connect` waits for Redis before starting on the local view (default 2000 ms). */
  connectTimeoutMs?: number;
  /** A command that gets no answer within this time counts as an outage (default 2000 ms). */
  commandTimeoutMs?: number;
  /** How often a store on its local view checks whether Redis is back (default 250 ms). */
  recoveryIntervalMs?: number;
  /** Dates session writes for idle pruning (R-GW-8); defaults to `clock`. */
  now?: () => number;
  /** Waits out compare-and-set contention; defaults to the system clock. */
  clock?: Clock;
  /** Jitters those waits; defaults to crypto randomness. */
  random?: Random;
  /** When given, idle sessions are pruned after connecting and periodically, while Redis answers (R-GW-8). */
  sessionRetention?: SessionRetention;
}

export class RedisStateStore extends FacetedStateStore implements StateStore {
  protected readonly facets: StoreFacets;
  readonly #client: RedisClient;
  readonly #link: RedisLink;
  #closed = false;
  #pruner: SessionPruner | undefined;

  private constructor(client: RedisClient, link: RedisLink) {
    super();
    this.#client = client;
    this.#link = link;
    this.facets = {
      profiles: new RedisProfiles(
        link.routeTo((r) => r.profiles),
        link.orderProviders,
      ),
      usageStats: new RedisUsageStats(link.routeTo((r) => r.usageStats)),
      sessions: new RedisSessions(
        link.routeTo((r) => r.sessions),
        () => this.#pruner?.noteSessionWrite(),
      ),
      probes: new RedisProbes(link.routeTo((r) => r.probes)),
      headroom: new RedisHeadroom(link.routeTo((r) => r.headroom)),
      spend: new RedisSpend(link.routeTo((r) => r.spend)),
    };
  }

  static async connect(options: RedisStateStoreOptions): Promise<RedisStateStore> {
    assertSafeAgentId(options.agentId);
    const commandTimeoutMs = options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS;
    const keys = redisKeys(options.keyPrefix, options.agentId);
    const client: RedisClient = createClient({
      url: options.url,
      // Fail fast while disconnected instead of queueing: the local view answers meanwhile.
      disableOfflineQueue: true,
      // A hung Redis (no replies, socket still open) is detected by inactivity: the keep-alive PING is only
      // re-sent after the previous one was answered, so a silent server lets the socket time out, which
      // rejects what is pending and starts reconnecting.
      pingInterval: commandTimeoutMs,
      // Every call through the link already has its deadline (withDeadline) and a hung socket times out below;
      // the client's own per-command timeout is an AbortSignal.timeout per command that is never cancelled and
      // fires later, a cost on every Redis-backed request (the seats connection measured it at ~8 % of its CPU).
      commandOptions: { timeout: 0 },
      socket: {
        connectTimeout: options.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS,
        socketTimeout: commandTimeoutMs * 3,
        reconnectStrategy: redisReconnectDelay,
      },
    });
    const secrets = new SecretBox(
      options.secretKey,
      `Redis ${redactUrl(options.url)} (${keys.pattern})`,
      (...args) => new SecretKeyNotSharedError(...args),
    );
    const clock = options.clock ?? systemClock;
    const now = options.now ?? (() => clock.now());
    const redis = new RedisConnection({ client, keys, secrets, clock, random: options.random ?? cryptoRandom, now });
    const url = redactUrl(options.url);
    const logger = options.logger ?? silentLogger;
    const link = new RedisLink({
      client,
      remote: new RemoteRedisState(redis),
      logger,
      url,
      recoveryIntervalMs: options.recoveryIntervalMs ?? 250,
      commandTimeoutMs,
    });
    const store = new RedisStateStore(client, link);
    // A dropped connection switches to the local view at once (see RedisLink.disconnected). Also keeps
    // 'error' from being unhandled.
    client.on("error", (error?: unknown) => link.disconnected(error));
    client.on("reconnecting", () => link.disconnected());
    client.on("ready", () => link.startRecovery());
    if (options.sessionRetention) {
      store.#pruner = new SessionPruner({
        ...options.sessionRetention,
        // Skipped during an outage: pruning is not journaled, the next sweep after recovery does it.
        prune: (params) => (link.mode === "shared" ? store.pruneSessions(params) : Promise.resolve([])),
        evict: (params) => (link.mode === "shared" ? store.evictSessions(params) : Promise.resolve([])),
        now,
        logger,
        label: `Redis at ${url}`,
      });
    }

    const connected = client.connect().then(
      () => true,
      () => false,
    );
    const ready = await Promise.race([
      connected,
      backgroundClock.sleep(options.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS).then(() => false),
    ]);
    try {
      await link.start(ready);
    } catch (error) {
      client.destroy();
      throw error;
    }
    store.#pruner?.start();
    return store;
  }

  /** `shared` while Redis answers; `local` while the store serves its in-process view. */
  get mode(): RedisStoreMode {
    return this.#link.mode;
  }

  // --- lifecycle ---
  checkAvailable(): Promise<void> {
    return this.#link.checkAvailable();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const recovered = this.#link.close();
    await this.#pruner?.stop();
    if (this.#client.isReady) {
      // A graceful close waits for pending replies; a hung Redis never sends them.
      const closed = this.#client.close().then(
        () => true,
        () => false,
      );
      if (!(await Promise.race([closed, backgroundClock.sleep(1000).then(() => false)]))) this.#client.destroy();
    } else if (this.#client.isOpen) {
      this.#client.destroy();
    }
    await recovered;
  }
}
