/**
 * SIGKILL rounds against a SQLite file, shared by the crash test (test/state/sqlite-crash.test.ts) and the
 * chaos suite (test/chaos/crash.chaos.ts): a child (children/crash-writer.ts) records failures and session
 * compare-and-sets in a tight loop and prints each acknowledged update; it is killed at a random moment.
 */
import { SecretBox } from "../../../src/state/secrets.js";
import { SqliteStateStore } from "../../../src/state/sqlite/sqlite-store.js";
import { startChild } from "./children.js";

export interface Acknowledged {
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

/** Starts a writer on `path`, lets it run 0…`maxRunMs` after its first acknowledged update, kills it. */
export async function crashOnce(path: string, round: number, secretKey: Buffer, maxRunMs: number): Promise<Acknowledged> {
  const profileId = `openai:round-${round}`;
  const sessionKey = `session-${round}`;
  const child = startChild("crash-writer.ts", {
    store: { backend: "sqlite", path, secretKey: secretKey.toString("base64") },
    profileId,
    sessionKey,
  });
  await child.waitForLine((line) => line === "ready");
  await child.waitForLine((line) => line === "session 1");
  await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * maxRunMs)));
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

export function openCrashedFile(path: string, secretKey: Buffer): SqliteStateStore {
  return SqliteStateStore.open({ path, secrets: new SecretBox({ key: secretKey, source: "test" }, path) });
}

/**
 * What is wrong with the stored state of one killed writer, as sentences (empty: nothing). The update in
 * flight at the kill may or may not have committed; every acknowledged one must have.
 */
export async function acknowledgedProblems(store: SqliteStateStore, acked: Acknowledged): Promise<string[]> {
  const problems: string[] = [];
  const stats = await store.getUsageStats(acked.profileId);
  const errorCount = stats?.errorCount ?? 0;
  if (errorCount < acked.failures) problems.push(`${acked.profileId}: ${acked.failures} failures acknowledged, ${errorCount} stored`);
  if (errorCount > acked.failures + 1)
    problems.push(`${acked.profileId}: ${errorCount} failures stored, at most ${acked.failures + 1} made`);
  if (!((stats?.cooldownUntil ?? 0) > 1_000_000 + acked.failures)) problems.push(`${acked.profileId}: cooldown missing`);
  const session = await store.getSession(acked.sessionKey);
  const stored = Number(session?.modelOverride?.replace("model-", "") ?? 0);
  if (stored < acked.sessions) problems.push(`${acked.sessionKey}: write ${acked.sessions} acknowledged, ${stored} stored`);
  if (stored > acked.sessions + 1) problems.push(`${acked.sessionKey}: write ${stored} stored, at most ${acked.sessions + 1} made`);
  if (stored > 0 && session?.modelOverrideSource !== "auto")
    problems.push(`${acked.sessionKey}: torn write (source ${session?.modelOverrideSource})`);
  return problems;
}
