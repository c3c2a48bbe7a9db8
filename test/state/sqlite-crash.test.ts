/**
 * R-SB-3 durability: a child recording failures and session compare-and-sets in a tight loop is killed
 * with SIGKILL at a random moment, 20 times. Each time the file opens, passes `PRAGMA integrity_check`, and
 * holds every update the child had acknowledged (printed) — including those of earlier crashes.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Acknowledged, acknowledgedProblems, crashOnce, openCrashedFile } from "./helpers/sqlite-crash.js";

const KILLS = 20;
/** Children run side by side on separate files to keep the test short on two cores. */
const PARALLEL = 4;
const secretKey = randomBytes(32);
const directory = mkdtempSync(join(tmpdir(), "detour-crash-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("SQLite crash safety", () => {
  it("R-SB-3: 20 SIGKILLs at random moments leave an intact file holding every acknowledged update", async () => {
    const paths = Array.from({ length: PARALLEL }, (_, slot) => join(directory, `crash-${slot}.sqlite`));
    const acknowledged: Acknowledged[] = [];
    for (let round = 0; round < KILLS / PARALLEL; round += 1) {
      const results = await Promise.all(paths.map((path, slot) => crashOnce(path, round * PARALLEL + slot, secretKey, 120)));
      for (const acked of results) {
        expect(acked.failures).toBeGreaterThan(0);
        acknowledged.push(acked);
        const store = openCrashedFile(acked.path, secretKey);
        expect(store.integrityCheck()).toBe("ok");
        for (const earlier of acknowledged.filter((entry) => entry.path === acked.path)) {
          expect(await acknowledgedProblems(store, earlier)).toEqual([]);
        }
        await store.close();
      }
    }
    expect(acknowledged).toHaveLength(KILLS);
    // 20 child processes started and killed one after another: slow on a loaded machine, bounded anyway.
  }, 120_000);
});
