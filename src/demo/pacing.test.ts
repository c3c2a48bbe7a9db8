import { describe, expect, it } from "vitest";
import { DemoClock } from "./demo-clock.js";
import { FAST_PACING, skipTime } from "./pacing.js";

describe("skipTime", () => {
  it("R-CL-2: --fast jumps the demo clock at once by exactly the skipped time", async () => {
    const clock = new DemoClock(() => 0);
    const frames: number[] = [];
    await skipTime(clock, 300_000, FAST_PACING, (now) => frames.push(now));
    expect(frames).toEqual([300_000]);
    expect(clock.skippedMs).toBe(300_000);
  });

  it("R-CL-2: an animated skip moves in frames and lands exactly on the target", async () => {
    const clock = new DemoClock(() => 0);
    const frames: number[] = [];
    await skipTime(clock, 1_000, { afterStepMs: 0, afterRequestMs: 0, skipAnimationMs: 3, skipAnimationFrames: 3 }, (now) =>
      frames.push(now),
    );
    expect(frames).toEqual([333, 667, 1_000]);
    expect(clock.skippedMs).toBe(1_000);
  });

  it("stops at once when aborted", async () => {
    const clock = new DemoClock(() => 0);
    const controller = new AbortController();
    controller.abort();
    const skipping = skipTime(
      clock,
      1_000,
      { afterStepMs: 0, afterRequestMs: 0, skipAnimationMs: 10_000, skipAnimationFrames: 2 },
      () => undefined,
      controller.signal,
    );
    await expect(skipping).rejects.toMatchObject({ name: "AbortError" });
  });
});
