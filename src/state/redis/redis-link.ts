/**
 * The Redis store's link to Redis and what an outage means (R-SB-3): when Redis cannot be reached, the
 * store switches to an in-process view (a memory store kept warm from every Redis read and write), logs ONE
 * warning, and keeps serving. Local changes are journaled. When Redis answers again:
 *  - it kept its data (same epoch) → the journal is replayed through the normal atomic paths, so failures
 *    recorded during the outage add to the shared counts and session writes stay compare-and-set;
 *  - it lost its data or was re-seeded by another replica (epoch missing or changed) → the local view fills
 *    in whatever is missing, never overwriting what another replica put back first.
 * Then the local view is reloaded from Redis and the store is shared again. Every facet runs its operations
 * through `run` (via `routeTo`).
 */
import { OutageJournal } from "./outage-journal.js";
import { randomUUID } from "node:crypto";
import type { Logger } from "../../ports/events.js";
import { MemoryStateStore } from "../memory/memory-store.js";
import { backgroundClock } from "../shared/background-clock.js";
import type { StoreUnavailableError } from "../state-errors.js";
import { captureView, seedMemory } from "./local-view.js";
import { errorText, isRedisOutage, RedisUnansweredError, redisUnavailable, withDeadline } from "./outage.js";
import type { RedisClient } from "./redis-connection.js";
import type { RemoteRedisState, StateSnapshot } from "./redis-remote.js";
import type { Route, RouteOptions } from "./route.js";

export type RedisStoreMode = "shared" | "local";

/**
 * The resynchronisation replays the journal in chunks of this size while new operations keep being
 * journaled, and holds them back once that stops shrinking it (see `#resynchronise`).
 */
const HOLD_BELOW_ENTRIES = 256;

export class RedisLink {
  readonly #client: RedisClient;
  readonly #remote: RemoteRedisState;
  readonly #logger: Logger;
  /** The redacted URL, for logs and errors. */
  readonly #url: string;
  readonly #recoveryIntervalMs: number;
  readonly #commandTimeoutMs: number;
  /** The one outstanding recovery PING; never more than one, so a hung socket can time out. */
  #pendingPing: Promise<boolean> | undefined;
  #view = new MemoryStateStore();
  /** Providers whose stored order the view may hold (the memory store cannot list them). */
  readonly orderProviders = new Set<string>();
  readonly #journal = new OutageJournal();
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
  /** False until `start` has decided the starting mode (the client's first 'ready' is not a recovery). */
  #initialised = false;
  /** Set once an outage has been reported, so one outage logs one warning. */
  #warned = false;
  #closed = false;

  constructor(options: {
    client: RedisClient;
    remote: RemoteRedisState;
    logger: Logger;
    url: string;
    recoveryIntervalMs: number;
    commandTimeoutMs: number;
  }) {
    this.#client = options.client;
    this.#remote = options.remote;
    this.#logger = options.logger;
    this.#url = options.url;
    this.#recoveryIntervalMs = options.recoveryIntervalMs;
    this.#commandTimeoutMs = options.commandTimeoutMs;
  }

  /** `shared` while Redis answers; `local` while the store serves its in-process view. */
  get mode(): RedisStoreMode {
    return this.#mode;
  }

  /**
   * Decides the starting mode once the client connected (`connected`) or gave up: shared after the key
   * check and a first snapshot, else local. Errors other than an outage (a wrong key) are thrown.
   */
  async start(connected: boolean): Promise<void> {
    if (!connected) {
      this.#enterLocal(new Error("no answer within the connect timeout"));
      return;
    }
    try {
      await this.#remote.verifySecretKey();
      this.#epoch = await this.#remote.adoptEpoch(randomUUID());
      const snapshot = await this.#remote.loadSnapshot();
      this.#view = await seedMemory(snapshot);
      this.#rememberOrders(Object.keys(snapshot.orders));
      await this.#remote.adoptUntimedSessions();
      this.#mode = "shared";
      this.#initialised = true;
    } catch (error) {
      if (!isRedisOutage(error)) throw error;
      this.#enterLocal(error);
    }
  }

  /**
   * A dropped connection switches to the local view at once, even if no operation is running: the Redis
   * that answers after the reconnect may have lost its data, so the store must resynchronise rather than
   * silently continue on an empty data set.
   */
  disconnected(error?: unknown): void {
    if (!this.#closed && this.#initialised && this.#mode === "shared") {
      this.#enterLocal(error ?? new Error("connection to Redis lost"));
    }
  }

  #rememberOrders(providers: Iterable<string>): void {
    for (const provider of providers) this.orderProviders.add(provider);
  }

  #enterLocal(cause: unknown): void {
    // The view as it was when the outage began, before any journaled change: what a Redis that lost its
    // data is re-seeded with, before the journal is replayed on top.
    this.#outageBase ??= captureView(this.#view, this.orderProviders);
    this.#outageCause = errorText(cause);
    this.#mode = "local";
    this.#initialised = true;
    if (!this.#warned) {
      this.#warned = true;
      this.#logger.log("warn", "Redis state backend is unreachable; serving from in-process state and resynchronising when it returns", {
        url: this.#url,
        error: errorText(cause),
      });
    }
    this.startRecovery();
  }

  startRecovery(): void {
    if (!this.#initialised || this.#closed || this.#mode === "shared" || this.#recovering) return;
    this.#recovering = this.#recover().finally(() => {
      this.#recovering = undefined;
    });
  }

  async #recover(): Promise<void> {
    while (!this.#closed && this.#mode === "local") {
      if (!this.#client.isReady || !(await this.#answersPing())) {
        await backgroundClock.sleep(this.#recoveryIntervalMs);
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
        await backgroundClock.sleep(this.#recoveryIntervalMs);
      }
    }
  }

  /** True when Redis answers a PING within the command timeout. */
  async #answersPing(): Promise<boolean> {
    this.#pendingPing ??= this.#remote
      .ping()
      .then(
        () => true,
        () => false,
      )
      .finally(() => {
        this.#pendingPing = undefined;
      });
    return Promise.race([this.#pendingPing, backgroundClock.sleep(this.#commandTimeoutMs).then(() => false)]);
  }

  async #resynchronise(): Promise<void> {
    await this.#remote.verifySecretKey();
    const epoch = await this.#remote.readEpoch();
    if (epoch === undefined || epoch !== this.#epoch) {
      // Redis lost its data (or another replica already re-seeded it): fill in what is missing from the view
      // as it was before the outage — never overwriting what another replica put back first — and let the
      // journal replay below add this replica's outage changes through the normal atomic paths.
      await this.#remote.fillMissing(await (this.#outageBase ?? captureView(this.#view, this.orderProviders)));
      this.#epoch = await this.#remote.adoptEpoch(epoch ?? randomUUID());
    }
    // Under load, requests keep journaling while the journal is replayed: drain it in chunks while that
    // shrinks it, then hold new operations back for the rest and the reload, so that this ends.
    while (this.#journal.length >= HOLD_BELOW_ENTRIES) {
      const before = this.#journal.length;
      await this.#journal.replay(this.#remote, HOLD_BELOW_ENTRIES);
      if (this.#journal.length >= before) break;
    }
    let release: () => void = () => {};
    this.#holding = new Promise<void>((resolve) => (release = resolve));
    try {
      await this.#journal.replay(this.#remote, this.#journal.length);
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

  /** The error of a write that must land in Redis or not at all (R-SB-5). */
  #unavailable(cause: unknown, maybeStored: boolean): StoreUnavailableError {
    const outcome = maybeStored ? "the write was not confirmed (it may or may not have been stored)" : "nothing was stored";
    return redisUnavailable(this.#url, cause, outcome, "Start Redis or fix state.redis.url, then try again.");
  }

  /**
   * Runs an operation on Redis, mirroring its result into the local view; on an outage, runs it on the
   * local view instead and journals `replay` (when given) for the resynchronisation. A write with
   * `durability: "required"` is never kept locally: it lands in Redis or throws (R-SB-5).
   */
  async run<T>(
    remote: (redis: RemoteRedisState, isAbandoned: () => boolean) => Promise<T>,
    local: (view: MemoryStateStore) => Promise<T>,
    options: RouteOptions<RemoteRedisState, T> = {},
  ): Promise<T> {
    const required = options.durability === "required";
    if (this.#holding && this.#mode === "local") {
      await Promise.race([this.#holding, backgroundClock.sleep(this.#commandTimeoutMs)]);
    }
    if (this.#mode === "shared") {
      try {
        const result = await withDeadline(this.#commandTimeoutMs, (isAbandoned) => remote(this.#remote, isAbandoned));
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
    if (options.replay) this.#journal.add(options.replay);
    return local(this.#view);
  }

  /** `run` for one facet: its operations and journal entries see only that facet's Redis half. */
  routeTo<R>(select: (remote: RemoteRedisState) => R): Route<R> {
    return (remote, local, { replay, ...options } = {}) =>
      this.run((redis, isAbandoned) => remote(select(redis), isAbandoned), local, {
        ...options,
        ...(replay ? { replay: (redis: RemoteRedisState) => replay(select(redis)) } : {}),
      });
  }

  async checkAvailable(): Promise<void> {
    try {
      await withDeadline(this.#commandTimeoutMs, () => this.#remote.checkAvailable());
    } catch (error) {
      if (!isRedisOutage(error)) throw error;
      const outcome = "requests are served from process-local state and explicit writes fail until it answers";
      throw redisUnavailable(this.#url, error, outcome, "Start Redis or fix state.redis.url.");
    }
  }

  /** Stops recovering at once; the promise settles when a recovery under way has ended. */
  close(): Promise<void> {
    this.#closed = true;
    return this.#recovering ?? Promise.resolve();
  }
}
