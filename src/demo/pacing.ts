/**
 * How fast the storyline plays. The default paces it for a person watching (short pauses, time skips shown
 * as a quick time-lapse of the cooldown timers) and still ends well under a minute; `--fast` plays it with
 * no pauses at all (tests, CI). Either way the demo clock jumps by the same amounts, so both runs make the
 * same decisions.
 */
import type { DemoClock } from "./demo-clock.js";

export interface Pacing {
  readonly afterStepMs: number;
  readonly afterRequestMs: number;
  /** Real time a skip of the demo clock is spread over (0 = jump at once). */
  readonly skipAnimationMs: number;
  readonly skipAnimationFrames: number;
}

export const WATCHABLE_PACING: Pacing = { afterStepMs: 900, afterRequestMs: 800, skipAnimationMs: 1_500, skipAnimationFrames: 15 };
export const FAST_PACING: Pacing = { afterStepMs: 0, afterRequestMs: 0, skipAnimationMs: 0, skipAnimationFrames: 1 };

/**
 * Skips `ms` of demo time. With an animation, the clock moves in frames and `onFrame` sees each new time;
 * the last frame lands exactly on the target, whatever rounding the frames had.
 */
export async function skipTime(
  clock: DemoClock,
  ms: number,
  pacing: Pacing,
  onFrame: (now: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  const frames = pacing.skipAnimationMs > 0 ? Math.max(1, pacing.skipAnimationFrames) : 1;
  let moved = 0;
  for (let frame = 1; frame <= frames; frame += 1) {
    const target = Math.round((ms * frame) / frames);
    clock.advance(target - moved);
    moved = target;
    onFrame(clock.now());
    if (frame < frames) await clock.sleep(pacing.skipAnimationMs / frames, signal);
  }
}
