/**
 * Contract part: session overrides are compared and written as groups (R-SB-6). The writers below are the
 * shapes the runner and the user paths send: `/model` is an unconditional patch of the whole model group, a
 * fallback write and its rollback are compare-and-sets of the whole group against what they last read.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { SessionEntry } from "../../../core/types.js";
import { SESSION_AUTH_PIN_GROUP, SESSION_MODEL_GROUP, type SessionFieldWrite, type StateStore } from "../../../ports/state-store.js";
import type { ContractContext } from "./fixtures.js";

type ModelGroup = Pick<SessionEntry, (typeof SESSION_MODEL_GROUP)[number]>;

const ON_AUTO: ModelGroup = {
  providerOverride: "openai",
  modelOverride: "gpt-4o",
  modelOverrideSource: "auto",
  modelOverrideFallbackOriginProvider: "anthropic",
  modelOverrideFallbackOriginModel: "claude-sonnet-4-6",
};
const FALLBACK: ModelGroup = { ...ON_AUTO, providerOverride: "google", modelOverride: "gemini-2.5-pro" };
/** The user picks another model of the SAME provider: a per-field compare would still match the provider. */
const USER_CHOICE: ModelGroup = {
  providerOverride: "openai",
  modelOverride: "gpt-5",
  modelOverrideSource: "user",
  modelOverrideFallbackOriginProvider: undefined,
  modelOverrideFallbackOriginModel: undefined,
};

function groupWrites(fields: readonly (keyof SessionEntry)[], from: Partial<SessionEntry>, to: Partial<SessionEntry>): SessionFieldWrite[] {
  return fields.map((field) => ({ field, expected: from[field], value: to[field] }) as SessionFieldWrite);
}

function modelGroupOf(entry: SessionEntry | undefined): ModelGroup {
  const group: Record<string, unknown> = {};
  for (const field of SESSION_MODEL_GROUP) group[field] = entry?.[field];
  return group as ModelGroup;
}

export function sessionGroupsContract(context: ContractContext): void {
  describe("session write groups", () => {
    let store: StateStore;
    beforeEach(() => {
      store = context.store();
    });

    /** A second writer: another replica or process where the backend shares state, else the same store. */
    async function otherWriter(): Promise<StateStore> {
      return context.handle().openSibling ? context.sibling() : store;
    }

    it("R-SB-6: a fallback write that read the session before a /model changes nothing of the model group", async () => {
      await store.patchSession("s1", ON_AUTO);
      const staleRead = await store.getSession("s1");
      await (await otherWriter()).patchSession("s1", { ...USER_CHOICE, pendingLiveSwitch: true });
      const result = await store.compareAndSetSession("s1", groupWrites(SESSION_MODEL_GROUP, staleRead ?? {}, FALLBACK));
      expect(result.applied).toEqual([]);
      expect(result.conflicted.sort()).toEqual([...SESSION_MODEL_GROUP].sort());
      expect(modelGroupOf(await store.getSession("s1"))).toEqual(USER_CHOICE);
    });

    it("R-SB-6: the auth-pin group is compared and written all-or-nothing", async () => {
      await store.patchSession("s1", {
        authProfileOverride: "openai:work",
        authProfileOverrideSource: "auto",
        authProfileOverrideCompactionCount: 2,
      });
      const staleRead = await store.getSession("s1");
      // The user pins another profile; its compaction count happens to equal the stale one.
      await (
        await otherWriter()
      ).patchSession("s1", {
        authProfileOverride: "openai:home",
        authProfileOverrideSource: "user",
      });
      const result = await store.compareAndSetSession(
        "s1",
        groupWrites(SESSION_AUTH_PIN_GROUP, staleRead ?? {}, {
          authProfileOverride: "openai:work",
          authProfileOverrideSource: "auto",
          authProfileOverrideCompactionCount: 3,
        }),
      );
      expect(result.applied).toEqual([]);
      expect(await store.getSession("s1")).toMatchObject({
        authProfileOverride: "openai:home",
        authProfileOverrideSource: "user",
        authProfileOverrideCompactionCount: 2,
      });
    });

    it("R-SB-6: groups are independent: a conflicting model group does not block the auth pin or other fields", async () => {
      await store.patchSession("s1", { ...ON_AUTO, compactionCount: 1 });
      const result = await store.compareAndSetSession("s1", [
        ...groupWrites(SESSION_MODEL_GROUP, USER_CHOICE, FALLBACK),
        ...groupWrites(SESSION_AUTH_PIN_GROUP, {}, { authProfileOverride: "google:default", authProfileOverrideSource: "auto" }),
        { field: "compactionCount", expected: 1, value: 2 },
      ]);
      expect(result.conflicted.sort()).toEqual([...SESSION_MODEL_GROUP].sort());
      expect(result.applied.sort()).toEqual([...SESSION_AUTH_PIN_GROUP, "compactionCount"].sort());
      const after = await store.getSession("s1");
      expect(modelGroupOf(after)).toEqual(ON_AUTO);
      expect(after).toMatchObject({ authProfileOverride: "google:default", compactionCount: 2 });
    });

    it("R-SB-6: a /model racing a fallback write and its rollback never leaves a pair nobody chose", async () => {
      const user = await otherWriter();
      const allowed = [ON_AUTO, FALLBACK, USER_CHOICE].map((group) => JSON.stringify(group));
      for (let round = 0; round < 40; round += 1) {
        const key = `race-${round}`;
        await store.patchSession(key, ON_AUTO);
        const read = await store.getSession(key);
        const fallback = async () => {
          const written = await store.compareAndSetSession(key, groupWrites(SESSION_MODEL_GROUP, read ?? {}, FALLBACK));
          if (written.applied.length === 0) return;
          // The candidate failed: the rollback only restores what still holds this write.
          await store.compareAndSetSession(key, groupWrites(SESSION_MODEL_GROUP, FALLBACK, ON_AUTO));
        };
        const userSwitch = () => user.patchSession(key, { ...USER_CHOICE, pendingLiveSwitch: true });
        // Vary who starts first so every interleaving the event loop allows gets exercised.
        await Promise.all(round % 2 === 0 ? [fallback(), userSwitch()] : [userSwitch(), fallback()]);
        const final = modelGroupOf(await store.getSession(key));
        expect(allowed, `round ${round}: ${JSON.stringify(final)}`).toContain(JSON.stringify(final));
        // The user's /model came last or raced: it must never be overwritten by the fallback's pair.
        if (final.modelOverrideSource === "user") expect(final).toEqual(USER_CHOICE);
      }
    });
  });
}
