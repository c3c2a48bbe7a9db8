/**
 * Crash: 20 × SIGKILL of a child that records failures and session compare-and-sets on one
 * SQLite file, each at a random moment of a longer run than the unit test's (up to 400 ms of writing), all
 * on the same file so that every kill lands on the history of the earlier ones. After each kill the file
 * must open, pass `PRAGMA integrity_check`, and hold every update any child acknowledged. Prints the
 * figures.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Acknowledged, acknowledgedProblems, crashOnce, openCrashedFile } from "../state/helpers/sqlite-crash.js";

const KILLS = 20;
const MAX_RUN_MS = 400;
const secretKey = randomBytes(32);
const directory = mkdtempSync(join(tmpdir(), "detour-chaos-crash-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("chaos: crash", () => {
  it(`R-SB-3: ${KILLS} SIGKILLs of a SQLite writer lose no acknowledged write`, async () => {
    const path = join(directory, "state.sqlite");
    const acknowledged: Acknowledged[] = [];
    const integrity: string[] = [];
    const problems: string[] = [];
    const started = Date.now();
    for (let round = 0; round < KILLS; round += 1) {
      const acked = await crashOnce(path, round, secretKey, MAX_RUN_MS);
      acknowledged.push(acked);
      const store = openCrashedFile(path, secretKey);
      try {
        integrity.push(store.integrityCheck());
        for (const earlier of acknowledged) problems.push(...(await acknowledgedProblems(store, earlier)));
      } finally {
        await store.close();
      }
    }
    const figures = {
      kills: acknowledged.length,
      seconds: Number(((Date.now() - started) / 1000).toFixed(1)),
      integrityOk: integrity.filter((result) => result === "ok").length,
      acknowledgedFailures: acknowledged.reduce((sum, acked) => sum + acked.failures, 0),
      acknowledgedSessionWrites: acknowledged.reduce((sum, acked) => sum + acked.sessions, 0),
      missingOrTornWrites: problems.length,
    };
    console.log(`[chaos crash] ${JSON.stringify(figures)}`);
    expect(integrity).toEqual(Array.from({ length: KILLS }, () => "ok"));
    expect(problems).toEqual([]);
    expect(acknowledged.every((acked) => acked.failures > 0)).toBe(true);
  });
});
