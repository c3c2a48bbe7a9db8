/**
 * Lock waits that never stall the event loop for long (R-SB-5): each attempt blocks at most the short
 * `busy_timeout`; a busy file is retried after an asynchronous, jittered, growing pause, so other requests
 * keep being served meanwhile. Each attempt re-runs the whole transaction, so its read-compute-write stays
 * atomic (R-SB-2). Past the deadline, or on any other SQLite error, the write fails with a typed error that
 * names the file; nothing claims it was stored.
 */
import type { Clock } from "../../ports/clock.js";
import type { Random } from "../../ports/random.js";
import { systemClock } from "../../ports/system-clock.js";
import { cryptoRandom } from "../../ports/system-random.js";
import { StoreUnavailableError } from "../state-errors.js";

/** How long a write keeps retrying a file another process holds locked. */
export const LOCK_WAIT_DEADLINE_MS = 5000;
const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 100;

function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : undefined;
}

export function isBusy(error: unknown): boolean {
  const code = sqliteCode(error);
  return code === "SQLITE_BUSY" || code === "SQLITE_LOCKED" || code?.startsWith("SQLITE_BUSY_") === true;
}

function backendName(path: string): string {
  return `The SQLite store ${path}`;
}

/** Turns an SQLite error into the typed error of R-SB-5; anything else is passed on as it is. */
export function storeWriteError(path: string, error: unknown, deadlineMs: number = LOCK_WAIT_DEADLINE_MS): unknown {
  const code = sqliteCode(error);
  if (code === undefined) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (isBusy(error)) {
    return new StoreUnavailableError({
      backend: backendName(path),
      problem: `stayed locked by another process for more than ${deadlineMs / 1000} s (${code})`,
      hint: "Another Detour process is holding a long write; try again, and check for a stuck process if it persists",
      cause: error,
    });
  }
  return new StoreUnavailableError({
    backend: backendName(path),
    problem: `refused the write: ${message} (${code})`,
    hint: "Check that the file and its directory are writable and that the disk has space, then try again.",
    cause: error,
  });
}

export async function withLockRetry<T>(
  path: string,
  attempt: () => T,
  options: { deadlineMs?: number; clock?: Clock; random?: Random } = {},
): Promise<T> {
  const deadlineMs = options.deadlineMs ?? LOCK_WAIT_DEADLINE_MS;
  const clock = options.clock ?? systemClock;
  const random = options.random ?? cryptoRandom;
  const deadline = clock.now() + deadlineMs;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return attempt();
    } catch (error) {
      if (!isBusy(error) || clock.now() >= deadline) throw storeWriteError(path, error, deadlineMs);
    }
    // Jitter spreads contending processes out so they do not collide again in lockstep.
    await clock.sleep(pause / 2 + random.next() * pause);
  }
}
