import { describe, expect, it } from "vitest";
import { runStoreContract } from "../__fixtures__/store-contract/index.js";
import { MemoryStateStore } from "./memory-store.js";

runStoreContract("memory", async () => {
  const store = new MemoryStateStore();
  return { store, cleanup: () => store.close() };
});

describe("R-SB-6 in the memory store", () => {
  it("R-SB-6: a model-group write with one stale expectation writes none of the group's fields", async () => {
    const store = new MemoryStateStore();
    await store.patchSession("s", { providerOverride: "openai", modelOverride: "gpt-5", modelOverrideSource: "user" });
    // A fallback write that read the session before the user's /model: its provider expectation is stale.
    const result = await store.compareAndSetSession("s", [
      { field: "providerOverride", expected: "anthropic", value: "google" },
      { field: "modelOverride", expected: "gpt-5", value: "gemini-2.5-pro" },
      { field: "modelOverrideSource", expected: "user", value: "auto" },
    ]);
    expect(result.conflicted.length).toBeGreaterThan(0);
    const session = await store.getSession("s");
    expect(session).toMatchObject({ providerOverride: "openai", modelOverride: "gpt-5", modelOverrideSource: "user" });
    await store.close();
  });
});
