/**
 * Idle session pruning run by the stores themselves (R-GW-8): once soon after opening, then periodically.
 * Each sweep removes at most one batch, so a store holding millions of stale sessions never spends long on
 * it; a full batch schedules the next one shortly after instead of waiting for the next period.
 */
import type { Clock } from "../../ports/clock.js";
import type { Logger } from "../../ports/events.js";
import { StoreUnavailableError } from "../state-errors.js";
import { backgroundClock } from "./background-clock.js";

export const DAY_MS = 24 * 60 * 60 * 1000;
const DEFAULT_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const DEFAULT_BATCH_SIZE = 500;
const CATCH_UP_DELAY_MS = 1000;

export interface SessionRetention {
  /** `sessions.idleTtlDays` (R-GW-8). */
  idleTtlDays: number;
  /** `sessions.maxCount` (R-GW-8): each sweep also evicts the least recently used sessions beyond it. */
  maxCount?: number;
  /** Default one hour. */
  sweepIntervalMs?: number;
  /** Sessions removed per sweep at most (default 500). */
  batchSize?: number;
}

export interface SessionPrunerOptions extends SessionRetention {
  prune: (params: { idleSince: number; limit: number }) => Promise<string[]>;
  /** The store's evictSessions; with `maxCount`, run after each prune. */
  evict?: (params: { maxCount: number; limit: number }) => Promise<string[]>;
  now: () => number;
  logger: Logger;
  /** The store, for log lines. */
  label: string;
  /** Schedules the sweeps; defaults to the unref'd system clock. */
  timers?: Clock;
}

export class SessionPruner {
  readonly #options: SessionPrunerOptions;
  /** Cancels the scheduled sweep, if one is scheduled. */
  #timer: (() => void) | undefined;
  #running: Promise<number> | undefined;
  #stopped = false;
  /** Session writes since the last sweep began; enough of them bring the next sweep forward. */
  #writesSinceSweep = 0;
  #sweepSoon = false;

  constructor(options: SessionPrunerOptions) {
    this.#options = options;
  }

  /** First sweep right away (on open), then every `sweepIntervalMs`. Never keeps the process alive. */
  start(): void {
    this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#timer?.();
    this.#timer = undefined;
    await this.#running?.catch(() => undefined);
  }

  /**
   * A session was written. A batch's worth of writes since the last sweep may have created as many new
   * sessions, so the next sweep comes within a second instead of within the hour: one client sending new
   * session keys cannot take the store far past `sessions.maxCount`.
   */
  noteSessionWrite(): void {
    if (this.#options.maxCount === undefined) return;
    this.#writesSinceSweep += 1;
    if (this.#writesSinceSweep < this.#batchSize || this.#running || this.#sweepSoon || this.#stopped) return;
    this.#timer?.();
    this.#schedule(CATCH_UP_DELAY_MS);
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    this.#sweepSoon = delayMs <= CATCH_UP_DELAY_MS;
    this.#timer = (this.#options.timers ?? backgroundClock).setTimer(delayMs, () => {
      this.#timer = undefined;
      this.#sweepSoon = false;
      this.#running = this.sweep().finally(() => {
        this.#running = undefined;
      });
      void this.#running.then((removed) =>
        this.#schedule(removed >= this.#batchSize ? CATCH_UP_DELAY_MS : (this.#options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS)),
      );
    });
  }

  get #batchSize(): number {
    return this.#options.batchSize ?? DEFAULT_BATCH_SIZE;
  }

  /** One bounded sweep; returns how many sessions it removed. Failures are logged, never thrown. */
  async sweep(): Promise<number> {
    const { idleTtlDays, now, logger, label } = this.#options;
    this.#writesSinceSweep = 0;
    try {
      const removed = await this.#options.prune({ idleSince: now() - idleTtlDays * DAY_MS, limit: this.#batchSize });
      if (removed.length > 0) {
        logger.log("info", `Pruned ${removed.length} session(s) idle for more than ${idleTtlDays} day(s)`, { store: label });
      }
      const { maxCount, evict } = this.#options;
      const evicted = maxCount !== undefined && evict ? await evict({ maxCount, limit: this.#batchSize }) : [];
      if (evicted.length > 0) {
        logger.log("info", `Evicted ${evicted.length} least recently used session(s) beyond sessions.maxCount (${maxCount})`, {
          store: label,
        });
      }
      // Either list full means more may be waiting: the caller schedules the next sweep soon.
      return Math.max(removed.length, evicted.length);
    } catch (error) {
      // A backend outage is reported by the store itself; the next sweep tries again.
      logger.log(error instanceof StoreUnavailableError ? "debug" : "warn", "Pruning idle sessions failed; will retry", {
        store: label,
        error: error instanceof Error ? error.message : String(error),
      });
      return 0;
    }
  }
}
