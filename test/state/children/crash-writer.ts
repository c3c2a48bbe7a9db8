/**
 * Child process of the crash test (R-SB-3): records failures and session compare-and-sets in a tight loop
 * and prints every update once the store acknowledged it. The parent kills it with SIGKILL at random.
 */
import { writeSync } from "node:fs";
import { CHILD_COOLDOWNS, type ChildStoreSpec, openChildStore } from "./open-child-store.js";

/**
 * An acknowledgement counts only once the parent can read it: written synchronously, because a loop whose
 * store calls settle without yielding to the event loop would otherwise keep console.log's pipe writes
 * queued in this process, and a SIGKILL would drop acknowledgements of updates that did commit.
 */
function acknowledge(line: string): void {
  writeSync(1, `${line}\n`);
}

const {
  store: spec,
  profileId,
  sessionKey,
} = JSON.parse(process.argv[2] ?? "{}") as {
  store: ChildStoreSpec;
  profileId: string;
  sessionKey: string;
};

const store = await openChildStore(spec);
acknowledge("ready");
let previous: string | undefined;
for (let index = 1; ; index += 1) {
  await store.recordFailure(profileId, {
    reason: "rate_limit",
    provider: "openai",
    now: 1_000_000 + index,
    cooldowns: CHILD_COOLDOWNS,
  });
  acknowledge(`failure ${index}`);
  const value = `model-${index}`;
  const result = await store.compareAndSetSession(sessionKey, [
    { field: "modelOverride", expected: previous, value },
    { field: "modelOverrideSource", expected: previous === undefined ? undefined : "auto", value: "auto" },
  ]);
  if (result.conflicted.length > 0) throw new Error(`unexpected conflict at ${index}`);
  previous = value;
  acknowledge(`session ${index}`);
}
