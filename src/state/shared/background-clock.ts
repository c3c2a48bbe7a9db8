/**
 * The clock the stores' own housekeeping waits on (session sweeps, lastUsed batches, Redis recovery and
 * reply deadlines): the system clock with unref'd timers, so that no store ever holds a process open.
 * Stores take every other time and randomness from the `Clock` and `Random` they are given.
 */
import type { Clock } from "../../ports/clock.js";
import { createSystemClock } from "../../ports/system-clock.js";

export const backgroundClock: Clock = createSystemClock({ unref: true });
