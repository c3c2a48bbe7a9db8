import { describe, expect, it } from "vitest";
import { FailoverError } from "../core/errors.js";
import { FakeClock } from "../testing/fake-clock.js";
import { RunGuard } from "./run-guard.js";

describe("run guard", () => {
  it("R-EC-7: the watchdog turns a hung attempt into a timeout failure, not an abort", async () => {
    const clock = new FakeClock();
    const guard = new RunGuard({ clock });
    const settled = guard.attempt(
      (signal) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
      5_000,
    );
    await clock.advanceAsync(5_000);
    const result = await settled;
    expect(result.kind).toBe("watchdog");
    expect(result.kind === "watchdog" && result.error.failure).toMatchObject({ code: "ETIMEDOUT" });
    expect(clock.pendingSleeps).toBe(0);
    guard.dispose();
  });

  it("R-EC-7: a caller abort throws at once even when the attempt ignores its signal", async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const guard = new RunGuard({ clock, signal: controller.signal });
    const settled = guard
      .attempt(() => new Promise(() => {}), undefined)
      .then(
        () => "resolved",
        (error: unknown) => error,
      );
    controller.abort();
    expect(((await settled) as Error).name).toBe("AbortError");
    expect(guard.callerAborted).toBe(true);
    guard.dispose();
  });

  it("the run deadline stops sleeps and attempts with a timeout FailoverError", async () => {
    const clock = new FakeClock();
    const guard = new RunGuard({ clock, runTimeoutMs: 1_000 });
    const sleeping = guard.sleep(10_000).then(
      () => "woke",
      (error: unknown) => error,
    );
    await clock.advanceAsync(1_000);
    const error = await sleeping;
    expect(error).toBeInstanceOf(FailoverError);
    expect(error).toMatchObject({ reason: "timeout" });
    await expect(guard.attempt(async () => "late", undefined)).rejects.toBeInstanceOf(FailoverError);
    guard.dispose();
  });

  it("the run deadline aborts the attempt in flight and stops the run with a timeout FailoverError", async () => {
    const clock = new FakeClock();
    const guard = new RunGuard({ clock, runTimeoutMs: 1_000 });
    let aborted: unknown;
    const settled = guard
      .attempt((signal) => new Promise((_, reject) => signal.addEventListener("abort", () => reject((aborted = signal.reason)))), 60_000)
      .then(
        () => "resolved",
        (error: unknown) => error,
      );
    await clock.advanceAsync(1_000);
    expect(await settled).toMatchObject({ reason: "timeout" });
    expect(aborted).toBeInstanceOf(Error);
    guard.dispose();
    expect(clock.pendingSleeps).toBe(0);
  });

  it("a finished attempt cancels its watchdog", async () => {
    const clock = new FakeClock();
    const guard = new RunGuard({ clock });
    expect(await guard.attempt(async () => 42, 5_000)).toEqual({ kind: "ok", value: 42 });
    expect(clock.pendingSleeps).toBe(0);
    guard.dispose();
  });
});
