/**
 * Child process of the multi-process test (R-SB-2): records `count` failures on one profile as fast as it
 * can, starting when the parent says go.
 */
import { CHILD_COOLDOWNS, type ChildStoreSpec, openChildStore, waitForGo } from "./open-child-store.js";

const {
  store: spec,
  profileId,
  count,
  startNow,
} = JSON.parse(process.argv[2] ?? "{}") as {
  store: ChildStoreSpec;
  profileId: string;
  count: number;
  startNow: number;
};

const store = await openChildStore(spec);
console.log("ready");
await waitForGo();
for (let index = 0; index < count; index += 1) {
  await store.recordFailure(profileId, {
    reason: "overloaded",
    provider: "openai",
    now: startNow + index,
    cooldowns: CHILD_COOLDOWNS,
  });
}
await store.close();
console.log("done");
process.exit(0);
