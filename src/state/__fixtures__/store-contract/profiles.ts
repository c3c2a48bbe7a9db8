/** Contract part: profiles and secrets (R-AP-1, R-AP-2, R-SB-4), stored order and lastGood (R-AP-3, R-AP-6). */
import { beforeEach, describe, expect, it } from "vitest";
import type { Credential } from "../../../core/types.js";
import type { StateStore } from "../../../ports/state-store.js";
import type { ContractCapabilities, ContractStoreHandle } from "./index.js";
import { type ContractContext, HOUR, NOW, apiKey, oauth, token, failure } from "./fixtures.js";

export function profilesContract(context: ContractContext, capabilities: ContractCapabilities): void {
  describe("profiles and secrets", () => {
    let store: StateStore;
    let handle: ContractStoreHandle;
    beforeEach(() => {
      store = context.store();
      handle = context.handle();
    });
    it("R-AP-1: stores every credential type and returns it unchanged", async () => {
      await store.upsertProfile({ id: "openai:default", credential: apiKey });
      await store.upsertProfile({ id: "anthropic:ada@example.com", credential: oauth });
      await store.upsertProfile({ id: "google:default", credential: token });
      expect(await store.getProfile("openai:default")).toEqual({ id: "openai:default", credential: apiKey });
      expect(await store.getProfile("anthropic:ada@example.com")).toEqual({
        id: "anthropic:ada@example.com",
        credential: oauth,
      });
      const listed = await store.listProfiles();
      expect(listed.map((profile) => profile.id).sort()).toEqual(["anthropic:ada@example.com", "google:default", "openai:default"]);
      expect(listed.find((profile) => profile.id === "google:default")?.credential).toEqual(token);
      expect(await store.getProfile("missing:default")).toBeUndefined();
    });

    it("R-AP-1: several OAuth accounts of one provider coexist under provider:<email> ids", async () => {
      await store.upsertProfile({ id: "anthropic:ada@example.com", credential: oauth });
      const second = { ...oauth, email: "bob@example.com", access: "access-bob" };
      await store.upsertProfile({ id: "anthropic:bob@example.com", credential: second });
      expect((await store.getProfile("anthropic:ada@example.com"))?.credential).toEqual(oauth);
      expect((await store.getProfile("anthropic:bob@example.com"))?.credential).toEqual(second);
    });

    it("R-AP-2: upsert replaces the stored credential (a refreshed token), and returned copies are detached", async () => {
      await store.upsertProfile({ id: "anthropic:ada@example.com", credential: oauth });
      const refreshed: Credential = { ...oauth, access: "access-refreshed", expires: NOW + 2 * HOUR };
      await store.upsertProfile({ id: "anthropic:ada@example.com", credential: refreshed });
      const read = await store.getProfile("anthropic:ada@example.com");
      expect(read?.credential).toEqual(refreshed);
      if (read?.credential.type === "oauth") read.credential.access = "mutated by caller";
      expect((await store.getProfile("anthropic:ada@example.com"))?.credential).toEqual(refreshed);
      expect(await store.listProfiles()).toHaveLength(1);
    });

    it("R-AP-2: removeProfile drops the profile, its stats, its stored-order entries and its lastGood", async () => {
      await store.upsertProfile({ id: "openai:a", credential: apiKey });
      await store.upsertProfile({ id: "openai:b", credential: { ...apiKey, key: "sk-b" } });
      await store.setStoredOrder("openai", ["openai:a", "openai:b"]);
      await store.recordSuccess("openai:a", { provider: "openai", now: NOW });
      await store.recordFailure("openai:a", failure("rate_limit"));
      expect(await store.removeProfile("openai:a")).toBe(true);
      expect(await store.getProfile("openai:a")).toBeUndefined();
      expect(await store.getUsageStats("openai:a")).toBeUndefined();
      expect(await store.getStoredOrder("openai")).toEqual(["openai:b"]);
      expect(await store.getLastGood("openai")).toBeUndefined();
      expect(await store.removeProfile("openai:a")).toBe(false);
      expect((await store.listProfiles()).map((profile) => profile.id)).toEqual(["openai:b"]);
    });

    // Registered only where secrets exist at rest; the memory store has no "at rest".
    if (capabilities.encryptsAtRest)
      it("R-SB-4: secrets are not kept in clear text at rest", async () => {
        if (!handle.readAtRest) throw new Error("encryptsAtRest backends must provide readAtRest");
        await store.upsertProfile({ id: "openai:default", credential: apiKey });
        await store.upsertProfile({ id: "anthropic:ada@example.com", credential: oauth });
        await store.upsertProfile({ id: "google:default", credential: token });
        const atRest = await handle.readAtRest();
        expect(atRest).toContain("openai:default");
        for (const secret of [
          "sk-contract-secret-0001",
          "access-contract-secret-0002",
          "refresh-contract-secret-0003",
          "token-contract-secret-0004",
        ]) {
          expect(atRest).not.toContain(secret);
        }
      });
  });

  describe("stored order and lastGood", () => {
    let store: StateStore;
    beforeEach(() => {
      store = context.store();
    });
    it("R-AP-3: a stored order is kept per provider and can be cleared", async () => {
      expect(await store.getStoredOrder("openai")).toBeUndefined();
      await store.setStoredOrder("openai", ["openai:b", "openai:a"]);
      await store.setStoredOrder("anthropic", ["anthropic:x"]);
      expect(await store.getStoredOrder("openai")).toEqual(["openai:b", "openai:a"]);
      await store.setStoredOrder("openai", ["openai:a"]);
      expect(await store.getStoredOrder("openai")).toEqual(["openai:a"]);
      await store.setStoredOrder("openai", undefined);
      expect(await store.getStoredOrder("openai")).toBeUndefined();
      expect(await store.getStoredOrder("anthropic")).toEqual(["anthropic:x"]);
    });

    it("R-AP-3: lastGood[provider] follows the latest success and lists per provider", async () => {
      expect(await store.getLastGood("openai")).toBeUndefined();
      await store.recordSuccess("openai:a", { provider: "openai", now: NOW });
      await store.recordSuccess("anthropic:x", { provider: "anthropic", now: NOW });
      await store.recordSuccess("openai:b", { provider: "openai", now: NOW + 1 });
      expect(await store.getLastGood("openai")).toBe("openai:b");
      expect(await store.getAllLastGood()).toEqual({ openai: "openai:b", anthropic: "anthropic:x" });
    });

    it("R-AP-6: setLastGood writes and clears lastGood directly (imports)", async () => {
      await store.setLastGood("openai", "openai:a");
      expect(await store.getLastGood("openai")).toBe("openai:a");
      await store.setLastGood("openai", undefined);
      expect(await store.getAllLastGood()).toEqual({});
    });
  });
}
