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
import { SecretBox } from "../../src/state/secrets.js";
import { SqliteStateStore } from "../../src/state/sqlite/sqlite-store.js";
import { startChild } from "./helpers/children.js";

const KILLS = 20;
/** Children run side by side on separate files to keep the test short on two cores. */
const PARALLEL = 4;
const secretKey = randomBytes(32);
const directory = mkdtempSync(join(tmpdir(), "detour-crash-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

interface Acknowledged {
  path: string;
  profileId: string;
  sessionKey: string;
  failures: number;
  sessions: number;
}

function lastAcknowledged(lines: readonly string[], kind: "failure" | "session"): number {
  let last = 0;
  for (const line of lines) {
    const [word, number] = line.split(" ");
    if (word === kind) last = Math.max(last, Number(number));
  }
  return last;
}

async function crashOnce(path: string, round: number): Promise<Acknowledged> {
  const profileId = `openai:round-${round}`;
  const sessionKey = `session-${round}`;
  const child = startChild("crash-writer.ts", {
    store: { backend: "sqlite", path, secretKey: secretKey.toString("base64") },
    profileId,
    sessionKey,
  });
  await child.waitForLine((line) => line === "ready");
  // Let the loop run a random while (at least one acknowledged update), then kill it mid-flight.
  await child.waitForLine((line) => line === "session 1");
  await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 120)));
  child.process.kill("SIGKILL");
  await child.exited;
  return {
    path,
    profileId,
    sessionKey,
    failures: lastAcknowledged(child.lines, "failure"),
    sessions: lastAcknowledged(child.lines, "session"),
  };
}

function open(path: string): SqliteStateStore {
  return SqliteStateStore.open({ path, secrets: new SecretBox({ key: secretKey, source: "test" }, path) });
}

async function expectAcknowledgedPresent(store: SqliteStateStore, acked: Acknowledged): Promise<void> {
  const stats = await store.getUsageStats(acked.profileId);
  // The update in flight at the kill may or may not have committed; every acknowledged one has.
  expect(stats?.errorCount).toBeGreaterThanOrEqual(acked.failures);
  expect(stats?.errorCount).toBeLessThanOrEqual(acked.failures + 1);
  expect(stats?.cooldownUntil).toBeGreaterThan(1_000_000 + acked.failures);
  const session = await store.getSession(acked.sessionKey);
  const stored = Number(session?.modelOverride?.replace("model-", "") ?? 0);
  expect(stored).toBeGreaterThanOrEqual(acked.sessions);
  expect(stored).toBeLessThanOrEqual(acked.sessions + 1);
  expect(session?.modelOverrideSource).toBe("auto");
}

describe("SQLite crash safety", () => {
  it("R-SB-3: 20 SIGKILLs at random moments leave an intact file holding every acknowledged update", async () => {
    const paths = Array.from({ length: PARALLEL }, (_, slot) => join(directory, `crash-${slot}.sqlite`));
    const acknowledged: Acknowledged[] = [];
    for (let round = 0; round < KILLS / PARALLEL; round += 1) {
      const results = await Promise.all(paths.map((path, slot) => crashOnce(path, round * PARALLEL + slot)));
      for (const acked of results) {
        expect(acked.failures).toBeGreaterThan(0);
        acknowledged.push(acked);
        const store = open(acked.path);
        expect(store.integrityCheck()).toBe("ok");
        for (const earlier of acknowledged.filter((entry) => entry.path === acked.path)) {
          await expectAcknowledgedPresent(store, earlier);
        }
        await store.close();
      }
    }
    expect(acknowledged).toHaveLength(KILLS);
    // 20 child processes started and killed one after another: slow on a loaded machine, bounded anyway.
  }, 120_000);
});
