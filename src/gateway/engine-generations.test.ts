import { describe, expect, it } from "vitest";
import { EngineGenerations } from "./engine-generations.js";

async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("EngineGenerations (hot reload)", () => {
  it("drains the previous generation once its requests have left, not those of the new one", async () => {
    const generations = new EngineGenerations();
    const first = generations.enter();
    const second = generations.enter();
    const { previous, drained } = generations.advance();
    expect(previous).toBe(0);
    const onNew = generations.enter();
    expect(await settled(drained)).toBe(false);
    first();
    first(); // leaving twice counts once
    expect(await settled(drained)).toBe(false);
    second();
    expect(await settled(drained)).toBe(true);
    expect(generations.inFlight(1)).toBe(1);
    onNew();
    expect(generations.inFlight(1)).toBe(0);
  });

  it("an idle generation is drained at once", async () => {
    const generations = new EngineGenerations();
    generations.enter()();
    expect(await settled(generations.advance().drained)).toBe(true);
    expect(generations.current).toBe(1);
  });
});
