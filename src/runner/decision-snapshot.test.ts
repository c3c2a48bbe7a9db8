import { describe, expect, it } from "vitest";
import { DecisionSnapshot, type ProviderInputs } from "./decision-snapshot.js";

function inputs(stats: ProviderInputs["stats"]): ProviderInputs {
  return { source: { profiles: [] }, profileProviders: {}, credentials: new Map(), ids: Object.keys(stats), stats };
}

class Stamped {
  value = 0;
  changeStamp(): number {
    return this.value;
  }
}

describe("decision snapshot (DESIGN §1: the healthy decision from memory)", () => {
  it("keeps a provider's inputs while the store's stamp holds and drops them once it moves", () => {
    const store = new Stamped();
    const snapshot = new DecisionSnapshot(store);
    expect(snapshot.current("openai")).toBeUndefined();
    const read = inputs({ "openai:a": { lastUsed: 1 } });
    snapshot.keep("openai", read, 0);
    expect(snapshot.current("openai")).toBe(read);
    store.value = 1;
    expect(snapshot.current("openai")).toBeUndefined();
    expect(snapshot.current("openai")).toBeUndefined();
  });

  it("does not keep inputs when the store changed while they were read", () => {
    const store = new Stamped();
    const snapshot = new DecisionSnapshot(store);
    const readAt = snapshot.stamp();
    store.value = 1;
    snapshot.keep("openai", inputs({}), readAt);
    expect(snapshot.current("openai")).toBeUndefined();
  });

  it("keeps nothing for a store without a stamp", () => {
    const snapshot = new DecisionSnapshot({});
    snapshot.keep("openai", inputs({}), snapshot.stamp());
    expect(snapshot.current("openai")).toBeUndefined();
  });

  it("R-CD-7: the run's own success is applied when it was the only change; anything more drops the snapshot", () => {
    const store = new Stamped();
    const snapshot = new DecisionSnapshot(store);
    snapshot.keep("openai", inputs({ "openai:a": { errorCount: 2, lastUsed: 1 }, "openai:b": undefined }), 0);
    snapshot.noteSuccess("openai:a", 5, 0, 1);
    store.value = 1;
    expect(snapshot.current("openai")?.stats["openai:a"]).toMatchObject({ errorCount: 0, lastUsed: 5 });

    snapshot.noteUsed("openai:b", 9, 1, 2);
    store.value = 2;
    expect(snapshot.current("openai")?.stats["openai:b"]).toEqual({ lastUsed: 9 });

    // Another write landed between the stamps: the success alone does not describe the store any more.
    snapshot.noteSuccess("openai:a", 12, 2, 4);
    store.value = 4;
    expect(snapshot.current("openai")).toBeUndefined();
  });
});
