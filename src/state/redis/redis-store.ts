/**
 * The Redis backend (SPEC §16): several gateway replicas share profiles, usage stats, sessions and probe
 * throttles through one Redis, with every update atomic server-side (see `redis-remote.ts`).
 *
 * Outage (R-SB-3): when Redis cannot be reached, the store switches to an in-process view (a memory store
 * kept warm from every Redis read and write), logs ONE warning, and keeps serving. Local changes are
 * journaled. When Redis answers again:
 *  - it kept its data (same epoch) → the journal is replayed through the normal atomic paths, so failures
 *    recorded during the outage add to the shared counts and session writes stay compare-and-set;
 *  - it lost its data or was re-seeded by another replica (epoch missing or changed) → the local view fills
 *    in whatever is missing, never overwriting what another replica put back first.
 * Then the local view is reloaded from Redis and the store is shared again.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { createClient } from "@redis/client";
import type { SessionEntry, UsageStats } from "../../core/types.js";
import { type Logger, silentLogger } from "../../ports/events.js";
import type {
  RecordFailureParams,
  SessionCasResult,
  SessionFieldWrite,
  StateStore,
  StoredProfile,
  WriteDurability,
  WriteOptions,
} from "../../ports/state-store.js";
import type { HeadroomReading } from "../../core/headroom/reading.js";
import { MemoryStateStore } from "../memory/memory-store.js";
import { type SecretKey, SecretBox } from "../secrets.js";
import { assertSafeAgentId } from "../sqlite/sqlite-file.js";
import { type SessionRetention, SessionPruner } from "../session-retention.js";
import { SecretKeyNotSharedError, StoreUnavailableError } from "../state-errors.js";
import { captureView, mirrorSession, seedMemory } from "./local-view.js";
import { errorText, isRedisOutage, redactUrl, RedisUnansweredError } from "./outage.js";
import { redisKeys } from "./redis-keys.js";
import { REDIS_COMMAND_TIMEOUT_MS, REDIS_CONNECT_TIMEOUT_MS } from "./redis-timeouts.js";
import { type RedisClient, RemoteRedisState, type StateSnapshot } from "./redis-remote.js";

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
  /** Dates session writes for idle pruning (R-GW-8); defaults to the system clock. */
  now?: () => number;
  /** When given, idle sessions are pruned after connecting and periodically, while Redis answers (R-GW-8). */
  sessionRetention?: SessionRetention;
}

export type RedisStoreMode = "shared" | "local";

type JournalEntry = (remote: RemoteRedisState) => Promise<unknown>;

/** Bounds the journal of a very long outage; the oldest local changes are dropped first. */
const MAX_JOURNAL_ENTRIES = 100_000;

/**
 * The resynchronisation replays the journal in chunks of this size while new operations keep being
 * journaled, and holds them back once that stops shrinking it (see `#resynchronise`).
 */
const HOLD_BELOW_ENTRIES = 256;

export class RedisStateStore implements StateStore {
  readonly #client: RedisClient;
  readonly #remote: RemoteRedisState;
  readonly #logger: Logger;
  readonly #url: string;
  readonly #recoveryIntervalMs: number;
  readonly #commandTimeoutMs: number;
  /** The one outstanding recovery PING; never more than one, so a hung socket can time out. */
  #pendingPing: Promise<boolean> | undefined;
  #view = new MemoryStateStore();
  /** Providers whose stored order the view may hold (the memory store cannot list them). */
  readonly #orderProviders = new Set<string>();
  readonly #journal: JournalEntry[] = [];
  #mode: RedisStoreMode = "local";
  #epoch: string | undefined;
  #recovering: Promise<void> | undefined;
  /**
   * Set while the last step of a resynchronisation runs: operations wait for it (up to the command
   * timeout) instead of adding to the journal, so that a store under steady load gets back to Redis.
   */
  #holding: Promise<void> | undefined;
  #outageBase: Promise<StateSnapshot> | undefined;
  #lastRecoveryError: string | undefined;
  /** Why Redis is not answering, for the errors of writes that must not be kept locally (R-SB-5). */
  #outageCause: string | undefined;
  /** False until `connect` has decided the starting mode (the client's first 'ready' is not a recovery). */
  #initialised = false;
  /** Set once an outage has been reported, so one outage logs one warning. */
  #warned = false;
  #closed = false;
  #pruner: SessionPruner | undefined;

  private constructor(client: RedisClient, remote: RemoteRedisState, options: RedisStateStoreOptions) {
    this.#client = client;
    this.#remote = remote;
    this.#logger = options.logger ?? silentLogger;
    this.#url = redactUrl(options.url);
    this.#recoveryIntervalMs = options.recoveryIntervalMs ?? 250;
    this.#commandTimeoutMs = options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS;
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
      socket: {
        connectTimeout: options.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS,
        socketTimeout: commandTimeoutMs * 3,
        reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 1000),
      },
    });
    const secrets = new SecretBox(
      options.secretKey,
      `Redis ${redactUrl(options.url)} (${keys.pattern})`,
      (...args) => new SecretKeyNotSharedError(...args),
    );
    const store = new RedisStateStore(client, new RemoteRedisState(client, keys, secrets, options.now), options);
    // A dropped connection switches to the local view at once, even if no operation is running: the
    // Redis that answers after the reconnect may have lost its data, so the store must resynchronise
    // rather than silently continue on an empty data set. (Also keeps 'error' from being unhandled.)
    const onDisconnect = (error?: unknown) => {
      if (!store.#closed && store.#initialised && store.#mode === "shared") {
        store.#enterLocal(error ?? new Error("connection to Redis lost"));
      }
    };
    client.on("error", onDisconnect);
    client.on("reconnecting", () => onDisconnect());
    client.on("ready", () => store.#startRecovery());
    if (options.sessionRetention) {
      store.#pruner = new SessionPruner({
        ...options.sessionRetention,
        // Skipped during an outage: pruning is not journaled, the next sweep after recovery does it.
        prune: (params) => (store.#mode === "shared" ? store.pruneSessions(params) : Promise.resolve([])),
        evict: (params) => (store.#mode === "shared" ? store.evictSessions(params) : Promise.resolve([])),
        now: options.now ?? Date.now,
        logger: store.#logger,
        label: `Redis at ${store.#url}`,
      });
    }

    const connected = client.connect().then(
      () => true,
      () => false,
    );
    const ready = await Promise.race([connected, sleep(options.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS, false, { ref: false })]);
    if (!ready) {
      store.#enterLocal(new Error("no answer within the connect timeout"));
      store.#pruner?.start();
      return store;
    }
    try {
      await store.#remote.verifySecretKey();
      store.#epoch = await store.#remote.adoptEpoch(randomUUID());
      const snapshot = await store.#remote.loadSnapshot();
      store.#view = await seedMemory(snapshot);
      store.#rememberOrders(Object.keys(snapshot.orders));
      await store.#remote.adoptUntimedSessions();
      store.#mode = "shared";
      store.#initialised = true;
      store.#pruner?.start();
    } catch (error) {
      if (!isRedisOutage(error)) {
        client.destroy();
        throw error;
      }
      store.#enterLocal(error);
      store.#pruner?.start();
    }
    return store;
  }

  /** `shared` while Redis answers; `local` while the store serves its in-process view. */
  get mode(): RedisStoreMode {
    return this.#mode;
  }

  #rememberOrders(providers: Iterable<string>): void {
    for (const provider of providers) this.#orderProviders.add(provider);
  }

  #enterLocal(cause: unknown): void {
    // The view as it was when the outage began, before any journaled change: what a Redis that lost its
    // data is re-seeded with, before the journal is replayed on top.
    this.#outageBase ??= captureView(this.#view, this.#orderProviders);
    this.#outageCause = errorText(cause);
    this.#mode = "local";
    this.#initialised = true;
    if (!this.#warned) {
      this.#warned = true;
      this.#logger.log(
        "warn",
        "Redis state backend is unreachable; serving from in-process state and resynchronising when it returns",
        { url: this.#url, error: errorText(cause) },
      );
    }
    this.#startRecovery();
  }

  #startRecovery(): void {
    if (!this.#initialised || this.#closed || this.#mode === "shared" || this.#recovering) return;
    this.#recovering = this.#recover().finally(() => {
      this.#recovering = undefined;
    });
  }

  async #recover(): Promise<void> {
    while (!this.#closed && this.#mode === "local") {
      if (!this.#client.isReady || !(await this.#answersPing())) {
        await sleep(this.#recoveryIntervalMs, undefined, { ref: false });
        continue;
      }
      // Resynchronisation steps run without a deadline: abandoning one half-way could apply a journal
      // entry twice. A Redis that hangs now is cut off by the socket inactivity timeout instead.
      try {
        await this.#resynchronise();
      } catch (error) {
        // Logged once per distinct error, not on every retry.
        if (!isRedisOutage(error) && errorText(error) !== this.#lastRecoveryError) {
          this.#lastRecoveryError = errorText(error);
          this.#logger.log("error", "Resynchronising the Redis state backend failed; retrying", {
            url: this.#url,
            error: this.#lastRecoveryError,
          });
        }
        await sleep(this.#recoveryIntervalMs, undefined, { ref: false });
      }
    }
  }

  /** True when Redis answers a PING within the command timeout. */
  async #answersPing(): Promise<boolean> {
    this.#pendingPing ??= this.#remote.ping().then(
      () => true,
      () => false,
    ).finally(() => {
      this.#pendingPing = undefined;
    });
    return Promise.race([this.#pendingPing, sleep(this.#commandTimeoutMs, false, { ref: false })]);
  }

  /**
   * Runs a Redis operation with a reply deadline. Past it the caller is answered from the local view;
   * `isAbandoned` tells a compare-and-set loop not to write when the late reply finally arrives.
   */
  async #withDeadline<T>(call: (isAbandoned: () => boolean) => Promise<T>): Promise<T> {
    let abandoned = false;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        abandoned = true;
        reject(new RedisUnansweredError(this.#commandTimeoutMs));
      }, this.#commandTimeoutMs);
      timer.unref();
    });
    try {
      return await Promise.race([call(() => abandoned), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #resynchronise(): Promise<void> {
    await this.#remote.verifySecretKey();
    const epoch = await this.#remote.readEpoch();
    if (epoch === undefined || epoch !== this.#epoch) {
      // Redis lost its data (or another replica already re-seeded it): fill in what is missing from the view
      // as it was before the outage — never overwriting what another replica put back first — and let the
      // journal replay below add this replica's outage changes through the normal atomic paths.
      await this.#remote.fillMissing(await (this.#outageBase ?? captureView(this.#view, this.#orderProviders)));
      this.#epoch = await this.#remote.adoptEpoch(epoch ?? randomUUID());
    }
    // Under load, requests keep journaling while the journal is replayed: drain it in chunks while that
    // shrinks it, then hold new operations back for the rest and the reload, so that this ends.
    while (this.#journal.length >= HOLD_BELOW_ENTRIES) {
      const before = this.#journal.length;
      await this.#replayJournal(HOLD_BELOW_ENTRIES);
      if (this.#journal.length >= before) break;
    }
    let release: () => void = () => {};
    this.#holding = new Promise<void>((resolve) => (release = resolve));
    try {
      await this.#replayJournal(this.#journal.length);
      const snapshot = await this.#remote.loadSnapshot();
      // Local changes that arrived while loading (an operation held longer than the command timeout) are
      // replayed first, then loaded again.
      if (this.#journal.length > 0 || this.#closed) return;
      const view = await seedMemory(snapshot);
      if (this.#journal.length > 0 || this.#closed) return;
      this.#view = view;
      this.#mode = "shared";
      this.#rememberOrders(Object.keys(snapshot.orders));
    } finally {
      this.#holding = undefined;
      release();
    }
    this.#outageBase = undefined;
    this.#lastRecoveryError = undefined;
    this.#warned = false;
    this.#logger.log("info", "Redis state backend is reachable again; local changes were resynchronised", {
      url: this.#url,
    });
  }

  /** Replays (and removes) the oldest `count` journal entries, in order. */
  async #replayJournal(count: number): Promise<void> {
    for (let index = 0; index < count && this.#journal.length > 0; index += 1) {
      const entry = this.#journal[0] as JournalEntry;
      await entry(this.#remote);
      this.#journal.shift();
    }
  }

  /** The error of a write that must land in Redis or not at all (R-SB-5). */
  #unavailable(cause: unknown, maybeStored: boolean): StoreUnavailableError {
    return new StoreUnavailableError({
      backend: `Redis at ${this.#url}`,
      problem: `is not answering: ${errorText(cause)}`,
      outcome: maybeStored ? "the write was not confirmed (it may or may not have been stored)" : "nothing was stored",
      hint: "Start Redis or fix state.redis.url, then try again.",
      cause,
    });
  }

  /**
   * Runs an operation on Redis, mirroring its result into the local view; on an outage, runs it on the
   * local view instead and journals `replay` (when given) for the resynchronisation. A write with
   * `durability: "required"` is never kept locally: it lands in Redis or throws (R-SB-5).
   */
  async #run<T>(
    remote: (redis: RemoteRedisState, isAbandoned: () => boolean) => Promise<T>,
    local: (view: MemoryStateStore) => Promise<T>,
    options: {
      mirror?: (view: MemoryStateStore, result: T) => Promise<unknown>;
      replay?: JournalEntry;
      durability?: WriteDurability;
    } = {},
  ): Promise<T> {
    const required = options.durability === "required";
    if (this.#holding && this.#mode === "local") {
      await Promise.race([this.#holding, sleep(this.#commandTimeoutMs, undefined, { ref: false })]);
    }
    if (this.#mode === "shared") {
      try {
        const result = await this.#withDeadline((isAbandoned) => remote(this.#remote, isAbandoned));
        if (options.mirror) await options.mirror(this.#view, result);
        return result;
      } catch (error) {
        if (!isRedisOutage(error)) throw error;
        this.#enterLocal(error);
        // A command that got no answer may still have been executed by Redis.
        if (required) throw this.#unavailable(error, error instanceof RedisUnansweredError);
      }
    }
    if (required) throw this.#unavailable(new Error(this.#outageCause ?? "connection to Redis lost"), false);
    if (options.replay) {
      this.#journal.push(options.replay);
      if (this.#journal.length > MAX_JOURNAL_ENTRIES) this.#journal.shift();
    }
    return local(this.#view);
  }

  // --- profiles and secrets ---

  listProfiles(): Promise<StoredProfile[]> {
    return this.#run((r) => r.listProfiles(), (v) => v.listProfiles(), {
      mirror: async (view, profiles) => {
        const current = new Set(profiles.map((profile) => profile.id));
        for (const stale of await view.listProfiles()) if (!current.has(stale.id)) await view.removeProfile(stale.id);
        for (const profile of profiles) await view.upsertProfile(profile);
      },
    });
  }

  getProfile(id: string): Promise<StoredProfile | undefined> {
    return this.#run((r) => r.getProfile(id), (v) => v.getProfile(id), {
      mirror: (view, profile) => (profile ? view.upsertProfile(profile) : view.removeProfile(id)),
    });
  }

  upsertProfile(profile: StoredProfile, options?: WriteOptions): Promise<void> {
    return this.#run((r) => r.upsertProfile(profile), (v) => v.upsertProfile(profile), {
      mirror: (view) => view.upsertProfile(profile),
      replay: (r) => r.upsertProfile(profile),
      durability: options?.durability ?? "required",
    });
  }

  removeProfile(id: string): Promise<boolean> {
    return this.#run((r) => r.removeProfile(id), (v) => v.removeProfile(id), {
      mirror: (view) => view.removeProfile(id),
      replay: (r) => r.removeProfile(id),
      durability: "required",
    });
  }

  // --- order and lastGood ---

  getStoredOrder(provider: string): Promise<string[] | undefined> {
    this.#orderProviders.add(provider);
    return this.#run((r) => r.getStoredOrder(provider), (v) => v.getStoredOrder(provider), {
      mirror: (view, order) => view.setStoredOrder(provider, order),
    });
  }

  setStoredOrder(provider: string, order: string[] | undefined): Promise<void> {
    this.#orderProviders.add(provider);
    return this.#run((r) => r.setStoredOrder(provider, order), (v) => v.setStoredOrder(provider, order), {
      mirror: (view) => view.setStoredOrder(provider, order),
      replay: (r) => r.setStoredOrder(provider, order),
      durability: "required",
    });
  }

  getLastGood(provider: string): Promise<string | undefined> {
    return this.#run((r) => r.getLastGood(provider), (v) => v.getLastGood(provider), {
      mirror: (view, id) => view.setLastGood(provider, id),
    });
  }

  getAllLastGood(): Promise<Record<string, string>> {
    return this.#run((r) => r.getAllLastGood(), (v) => v.getAllLastGood(), {
      mirror: async (view, all) => {
        for (const provider of Object.keys(await view.getAllLastGood())) await view.setLastGood(provider, all[provider]);
        for (const [provider, id] of Object.entries(all)) await view.setLastGood(provider, id);
      },
    });
  }

  setLastGood(provider: string, profileId: string | undefined): Promise<void> {
    return this.#run((r) => r.setLastGood(provider, profileId), (v) => v.setLastGood(provider, profileId), {
      mirror: (view) => view.setLastGood(provider, profileId),
      replay: (r) => r.setLastGood(provider, profileId),
      durability: "required",
    });
  }

  // --- usage stats ---

  getUsageStats(profileId: string): Promise<UsageStats | undefined> {
    return this.#run((r) => r.getUsageStats(profileId), (v) => v.getUsageStats(profileId), {
      mirror: (view, stats) => view.replaceUsageStats(profileId, stats),
    });
  }

  getAllUsageStats(): Promise<Record<string, UsageStats>> {
    return this.#run((r) => r.getAllUsageStats(), (v) => v.getAllUsageStats(), {
      mirror: async (view, all) => {
        for (const id of Object.keys(await view.getAllUsageStats())) await view.replaceUsageStats(id, all[id]);
        for (const [id, stats] of Object.entries(all)) await view.replaceUsageStats(id, stats);
      },
    });
  }

  recordFailure(profileId: string, params: RecordFailureParams): Promise<UsageStats> {
    return this.#run((r, abandoned) => r.recordFailure(profileId, params, abandoned), (v) => v.recordFailure(profileId, params), {
      mirror: (view, stats) => view.replaceUsageStats(profileId, stats),
      replay: (r) => r.recordFailure(profileId, params),
    });
  }

  recordSuccess(profileId: string, params: { provider: string; now: number }): Promise<UsageStats> {
    return this.#run((r, abandoned) => r.recordSuccess(profileId, params, abandoned), (v) => v.recordSuccess(profileId, params), {
      mirror: async (view, stats) => {
        await view.replaceUsageStats(profileId, stats);
        await view.setLastGood(params.provider, profileId);
      },
      replay: (r) => r.recordSuccess(profileId, params),
    });
  }

  markUsed(profileId: string, now: number): Promise<void> {
    return this.#run((r) => r.markUsed(profileId, now), (v) => v.markUsed(profileId, now), {
      mirror: (view) => view.markUsed(profileId, now),
      replay: (r) => r.markUsed(profileId, now),
    });
  }

  clearExpired(profileId: string, now: number): Promise<UsageStats | undefined> {
    // Not journaled: clearing ended windows is recomputed from the shared stats on the next read.
    return this.#run((r, abandoned) => r.clearExpired(profileId, now, abandoned), (v) => v.clearExpired(profileId, now), {
      mirror: (view, stats) => view.replaceUsageStats(profileId, stats),
    });
  }

  resetUsageStats(profileId: string): Promise<void> {
    return this.#run((r, abandoned) => r.resetUsageStats(profileId, abandoned), (v) => v.resetUsageStats(profileId), {
      mirror: (view) => view.resetUsageStats(profileId),
      replay: (r) => r.resetUsageStats(profileId),
      durability: "required",
    });
  }

  replaceUsageStats(profileId: string, stats: UsageStats | undefined): Promise<void> {
    return this.#run((r) => r.replaceUsageStats(profileId, stats), (v) => v.replaceUsageStats(profileId, stats), {
      mirror: (view) => view.replaceUsageStats(profileId, stats),
      replay: (r) => r.replaceUsageStats(profileId, stats),
      durability: "required",
    });
  }

  // --- sessions ---

  getSession(sessionKey: string): Promise<SessionEntry | undefined> {
    return this.#run((r) => r.getSession(sessionKey), (v) => v.getSession(sessionKey), {
      mirror: (view, entry) => mirrorSession(view, sessionKey, entry),
    });
  }

  listSessions(): Promise<SessionEntry[]> {
    return this.#run((r) => r.listSessions(), (v) => v.listSessions(), {
      mirror: async (view, entries) => {
        const current = new Set(entries.map((entry) => entry.sessionKey));
        for (const stale of await view.listSessions()) if (!current.has(stale.sessionKey)) await view.deleteSession(stale.sessionKey);
        for (const entry of entries) await mirrorSession(view, entry.sessionKey, entry);
      },
    });
  }

  patchSession(
    sessionKey: string,
    patch: Partial<Omit<SessionEntry, "sessionKey">>,
    options?: WriteOptions,
  ): Promise<SessionEntry> {
    this.#pruner?.noteSessionWrite();
    return this.#run((r) => r.patchSession(sessionKey, patch), (v) => v.patchSession(sessionKey, patch), {
      mirror: (view, entry) => mirrorSession(view, sessionKey, entry),
      replay: (r) => r.patchSession(sessionKey, patch),
      durability: options?.durability ?? "required",
    });
  }

  compareAndSetSession(sessionKey: string, writes: SessionFieldWrite[], options?: WriteOptions): Promise<SessionCasResult> {
    this.#pruner?.noteSessionWrite();
    return this.#run(
      (r) => r.compareAndSetSession(sessionKey, writes),
      (v) => v.compareAndSetSession(sessionKey, writes),
      {
        mirror: (view, result) =>
          result.applied.length > 0 ? mirrorSession(view, sessionKey, result.entry) : Promise.resolve(),
        // Replayed as compare-and-set too: a field someone changed on Redis meanwhile is left alone (R-SO-2).
        replay: (r) => r.compareAndSetSession(sessionKey, writes),
        durability: options?.durability ?? "required",
      },
    );
  }

  deleteSession(sessionKey: string): Promise<boolean> {
    return this.#run((r) => r.deleteSession(sessionKey), (v) => v.deleteSession(sessionKey), {
      mirror: (view) => view.deleteSession(sessionKey),
      replay: (r) => r.deleteSession(sessionKey),
      durability: "required",
    });
  }

  /** R-GW-8; explicit and never journaled: an outage fails it like any required write. */
  pruneSessions(params: { idleSince: number; limit?: number }): Promise<string[]> {
    return this.#run((r) => r.pruneSessions(params), (v) => v.pruneSessions(params), {
      mirror: async (view, removed) => {
        for (const sessionKey of removed) await view.deleteSession(sessionKey);
      },
      durability: "required",
    });
  }

  /** R-GW-8 `sessions.maxCount`; explicit like pruneSessions. */
  evictSessions(params: { maxCount: number; limit?: number }): Promise<string[]> {
    return this.#run((r) => r.evictSessions(params), (v) => v.evictSessions(params), {
      mirror: async (view, removed) => {
        for (const sessionKey of removed) await view.deleteSession(sessionKey);
      },
      durability: "required",
    });
  }

  countSessions(): Promise<number> {
    return this.#run((r) => r.countSessions(), (v) => v.countSessions(), {});
  }

  async checkAvailable(): Promise<void> {
    try {
      await this.#withDeadline(() => this.#remote.checkAvailable());
    } catch (error) {
      if (!isRedisOutage(error)) throw error;
      throw new StoreUnavailableError({
        backend: `Redis at ${this.#url}`,
        problem: `is not answering: ${errorText(error)}`,
        outcome: "requests are served from process-local state and explicit writes fail until it answers",
        hint: "Start Redis or fix state.redis.url.",
        cause: error,
      });
    }
  }

  // --- probe throttle (process-local during an outage, like the memory store) ---

  tryClaimProbe(key: string, now: number, intervalMs: number): Promise<boolean> {
    return this.#run((r) => r.tryClaimProbe(key, now, intervalMs), (v) => v.tryClaimProbe(key, now, intervalMs), {
      mirror: (view, claimed) => (claimed ? view.tryClaimProbe(key, now, 0) : Promise.resolve(false)),
    });
  }

  getLastProbeAt(key: string): Promise<number | undefined> {
    return this.#run((r) => r.getLastProbeAt(key), (v) => v.getLastProbeAt(key));
  }

  // --- headroom readings (R-PO-7): not journaled — a reading is restated by the provider's next answer ---

  recordHeadroom(profileId: string, readings: readonly HeadroomReading[], now: number): Promise<void> {
    return this.#run((r) => r.recordHeadroom(profileId, readings, now), (v) => v.recordHeadroom(profileId, readings, now), {
      mirror: (view) => view.recordHeadroom(profileId, readings, now),
    });
  }

  headroomReadings(profileIds: readonly string[], now: number): Promise<Record<string, HeadroomReading[]>> {
    return this.#run((r) => r.headroomReadings(profileIds, now), (v) => v.headroomReadings(profileIds, now), {
      mirror: async (view, found) => {
        for (const [id, readings] of Object.entries(found)) await view.recordHeadroom(id, readings, now);
      },
    });
  }

  // --- spend (R-GW-7): not journaled — spend charged during an outage stays in this process's local view ---

  recordSpend(profileId: string, costUsd: number, now: number): Promise<void> {
    return this.#run((r) => r.recordSpend(profileId, costUsd, now), (v) => v.recordSpend(profileId, costUsd, now));
  }

  spendByProfile(now: number): Promise<Record<string, number>> {
    return this.#run((r) => r.spendByProfile(now), (v) => v.spendByProfile(now));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pruner?.stop();
    if (this.#client.isReady) {
      // A graceful close waits for pending replies; a hung Redis never sends them.
      const closed = this.#client.close().then(
        () => true,
        () => false,
      );
      if (!(await Promise.race([closed, sleep(1000, false, { ref: false })]))) this.#client.destroy();
    } else if (this.#client.isOpen) {
      this.#client.destroy();
    }
    await this.#recovering;
  }
}
