/**
 * Keeps the learned first-token figures (R-TT-1, R-HG-2) where `detour status` — a process of its own — can
 * read them: the samples live in this engine's memory. A finished attempt with a first token asks for a write;
 * writes happen at most every `FIRST_TOKEN_WRITE_EVERY_MS`, after the current turn of the event loop (off the
 * request's path), with a trailing write for what the last window learned. Only the configured models are
 * written (at most `MAX_FIRST_TOKEN_SUMMARY_ROWS`); rows expire in the store when no longer written.
 */
import { configuredModelRefs, type DetourConfig } from "../config/index.js";
import type { Logger } from "../ports/events.js";
import type { Clock } from "../ports/clock.js";
import { byModel, MAX_FIRST_TOKEN_SUMMARY_ROWS, type FirstTokenSummaryStore } from "../ports/first-token-summary.js";
import type { HedgingDeps } from "../runner/hedge-race.js";
import { openFirstTokenSummary } from "../state/open-first-token-summary.js";
import { backgroundClock } from "../state/shared/background-clock.js";
import { firstTokenStatus, type FirstTokenStatus } from "./hedging-deps.js";

export const FIRST_TOKEN_WRITE_EVERY_MS = 30_000;

export interface FirstTokenPersistence {
  /** An attempt saw its first token: the figures changed. */
  noteSample(): void;
  /** This engine's figures, with what the store holds for models this engine has no samples of. */
  rows(now: number): Promise<FirstTokenStatus[]>;
  close(): Promise<void>;
}

export function createFirstTokenPersistence(options: {
  config: DetourConfig;
  clock: Clock;
  logger: Logger;
  hedging: HedgingDeps;
  /** Memory: nothing is kept beyond this engine (a store handed in by the caller). */
  backend: "sqlite" | "redis" | "memory";
  /** A read-only engine (the CLI) reads the summary and never writes it. */
  readOnly: boolean;
  detourHome?: string;
  env?: NodeJS.ProcessEnv;
  open?: () => Promise<FirstTokenSummaryStore>;
  /** Runs the trailing write; default: unref'd system timers, which never hold the process open. */
  timers?: Pick<Clock, "setTimer">;
}): FirstTokenPersistence {
  const { config, clock, hedging, logger } = options;
  const kept = options.backend !== "memory";
  const configured = new Set(configuredModelRefs(config));
  let store: Promise<FirstTokenSummaryStore> | undefined;
  let lastWriteAt = Number.NEGATIVE_INFINITY;
  let writing = false;
  let cancelTrailing: (() => void) | undefined;
  let warned = false;
  let closed = false;

  const open = (): Promise<FirstTokenSummaryStore> => {
    store ??=
      options.open?.() ??
      openFirstTokenSummary({
        backend: options.backend,
        readOnly: options.readOnly,
        ...(options.detourHome !== undefined ? { detourHome: options.detourHome } : {}),
        ...(config.state.redis ? { redis: config.state.redis } : {}),
        ...(options.env ? { env: options.env } : {}),
      });
    return store;
  };

  async function write(): Promise<void> {
    if (closed) return;
    const now = clock.now();
    lastWriteAt = now;
    writing = true;
    try {
      const rows = firstTokenStatus(hedging)
        .filter((row) => configured.has(`${row.provider}/${row.model}`))
        .slice(0, MAX_FIRST_TOKEN_SUMMARY_ROWS);
      if (rows.length > 0) await (await open()).write(rows, now);
    } catch (error) {
      // Best effort: status then shows what the store last held; said once, not per write.
      if (!warned) {
        warned = true;
        logger.log("warn", "Could not keep the learned first-token figures in the state store", {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    } finally {
      writing = false;
    }
  }

  function noteSample(): void {
    if (!kept || options.readOnly || closed) return;
    const waitMs = lastWriteAt + FIRST_TOKEN_WRITE_EVERY_MS - clock.now();
    if (waitMs <= 0 && !writing) {
      cancelTrailing?.();
      cancelTrailing = undefined;
      setImmediate(() => void write());
      return;
    }
    // Inside the window: one trailing write at its end keeps what it learned.
    cancelTrailing ??= (options.timers ?? backgroundClock).setTimer(Math.max(waitMs, 0), () => {
      cancelTrailing = undefined;
      if (!closed) void write();
    });
  }

  async function rows(now: number): Promise<FirstTokenStatus[]> {
    const own = firstTokenStatus(hedging);
    if (!kept) return own;
    let stored: FirstTokenStatus[] = [];
    try {
      stored = await (await open()).read(now);
    } catch {
      // Status shows this engine's own figures when the store cannot answer.
    }
    const seen = new Set(own.map((row) => `${row.provider}/${row.model}`));
    return [...own, ...stored.filter((row) => !seen.has(`${row.provider}/${row.model}`))].sort(byModel);
  }

  async function close(): Promise<void> {
    closed = true;
    cancelTrailing?.();
    cancelTrailing = undefined;
    const opened = store;
    store = undefined;
    if (opened) await (await opened.catch(() => undefined))?.close();
  }

  return { noteSample, rows, close };
}
