import { describe, expect, it } from "vitest";
import { DemoClock } from "./demo-clock.js";

describe("DemoClock", () => {
  it("R-CL-2: skipping ahead moves now() by exactly the skipped time and nothing else", () => {
    let wall = 1_000;
    const clock = new DemoClock(() => wall);
    expect(clock.now()).toBe(1_000);
    clock.advance(300_000);
    expect(clock.now()).toBe(301_000);
    wall = 1_500;
    expect(clock.now()).toBe(301_500);
    expect(clock.skippedMs).toBe(300_000);
  });

  it("refuses to run backwards", () => {
    const clock = new DemoClock(() => 0);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
    expect(clock.now()).toBe(0);
  });

  it("sleeps on real time and can be aborted", async () => {
    const clock = new DemoClock();
    const controller = new AbortController();
    const sleeping = clock.sleep(10_000, controller.signal);
    controller.abort();
    await expect(sleeping).rejects.toMatchObject({ name: "AbortError" });
  });
});
