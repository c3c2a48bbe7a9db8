/**
 * `detour status`, `auth list` and `sessions list` as a newcomer reads them: a keyRef profile has its declared
 * type, "last good" is never claimed for a disabled key, the legend shows only beside a star, and sessions
 * say when they were last written, newest first (R-AP-3, R-GW-8).
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { openStateStore } from "../../src/state/open-store.js";
import { ensureBuilt } from "./helpers/build.js";
import { createSandbox, type Sandbox } from "./helpers/run-detour.js";

beforeAll(async () => {
  await ensureBuilt();
}, 180_000);

const sandboxes: Sandbox[] = [];
function fresh(): Sandbox {
  const box = createSandbox();
  sandboxes.push(box);
  return box;
}
afterEach(() => {
  for (const used of sandboxes.splice(0)) used.cleanup();
});

const secretKey = Buffer.alloc(32, 7).toString("base64");
const env = { DETOUR_SECRET_KEY: secretKey };
const KEYREF_CONFIG = {
  agents: { defaults: { model: "openai/gpt-5" } },
  auth: { profiles: { "openai:work": { provider: "openai", mode: "api_key", keyRef: { env: "OPENAI_WORK_KEY" } } } },
};

function rowOf(stdout: string, id: string): string {
  return (
    stdout
      .split("\n")
      .map((line) => line.trim())
      .find((line) => line.startsWith(`${id} `)) ?? ""
  );
}

describe("status and auth list columns", () => {
  it("R-AP-3 a keyRef api_key profile shows type api_key even where its variable is not set", async () => {
    const box = fresh();
    box.writeConfig(KEYREF_CONFIG);
    const status = await box.run(["status"], { env });
    expect(status.code, status.stderr).toBe(0);
    expect(rowOf(status.stdout, "openai:work")).toMatch(/^openai:work\s+openai\s+api_key\s/);
    const list = await box.run(["auth", "list"], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(rowOf(list.stdout, "openai:work")).toMatch(/^openai:work\s+api_key\s+env\s/);
    expect(JSON.parse((await box.run(["auth", "list", "--json"], { env })).stdout).profiles[0].type).toBe("api_key");
    // No row carries a star, so there is no legend for one.
    expect(list.stdout).not.toContain("last good");
  });

  it("R-AP-3 a last-good key disabled for billing is not shown as last good; a usable one is, with the legend", async () => {
    const box = fresh();
    const store = await openStateStore({ backend: "sqlite", detourHome: box.detourHome, secretKey });
    await store.upsertProfile({
      id: "openai:default",
      credential: { type: "api_key", provider: "openai", key: "sk-status-test-0123456789" },
    });
    await store.setLastGood("openai", "openai:default");
    await store.replaceUsageStats("openai:default", { disabledUntil: Date.now() + 3_600_000, disabledReason: "billing" });
    await store.close();

    const status = await box.run(["status"], { env });
    expect(status.code, status.stderr).toBe(0);
    const row = rowOf(status.stdout, "openai:default");
    expect(row).toContain("disabled billing");
    expect(row).not.toMatch(/\byes\s*$/);
    const list = await box.run(["auth", "list"], { env });
    expect(rowOf(list.stdout, "openai:default")).not.toContain("*");
    expect(list.stdout).not.toContain("last good");
    expect(JSON.parse((await box.run(["auth", "list", "--json"], { env })).stdout).profiles[0].lastGood).toBe(false);

    expect((await box.run(["auth", "reset", "openai:default"], { env })).code).toBe(0);
    const after = await box.run(["auth", "list"], { env });
    expect(rowOf(after.stdout, "openai:default *")).not.toBe("");
    expect(after.stdout).toContain("* last good profile of its provider");
    expect(rowOf((await box.run(["status"], { env })).stdout, "openai:default")).toMatch(/\byes\s*$/);
  });
});

describe("sessions updated column", () => {
  it("R-GW-8 sessions list and status show when each session was last written, newest first", async () => {
    const box = fresh();
    const store = await openStateStore({ backend: "sqlite", detourHome: box.detourHome, secretKey });
    for (const key of ["b-old", "a-middle", "c-new"]) {
      await store.patchSession(key, { providerOverride: "openai", modelOverride: "gpt-4o", modelOverrideSource: "user" });
      await new Promise((done) => setTimeout(done, 1_100));
    }
    await store.close();

    const list = await box.run(["sessions", "list"], { env });
    expect(list.code, list.stderr).toBe(0);
    const rows = list.stdout
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => /^[abc]-/.test(line));
    expect(rows.map((line) => line.split(/\s+/)[0])).toEqual(["c-new", "a-middle", "b-old"]);
    for (const line of rows) expect(line).toMatch(/\d+s ago\s*$/);
    const json = JSON.parse((await box.run(["sessions", "list", "--json"], { env })).stdout) as {
      sessions: { sessionKey: string; updatedAt?: number }[];
    };
    expect(json.sessions.map((entry) => entry.sessionKey)).toEqual(["c-new", "a-middle", "b-old"]);
    expect(json.sessions.every((entry) => typeof entry.updatedAt === "number")).toBe(true);

    const status = await box.run(["status"], { env });
    const statusRows = status.stdout
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => /^[abc]-/.test(line));
    expect(statusRows.map((line) => line.split(/\s+/)[0])).toEqual(["c-new", "a-middle", "b-old"]);
    expect(statusRows[0]).toMatch(/\d+s ago\s*$/);
    const show = await box.run(["sessions", "show", "a-middle"], { env });
    expect(show.stdout).toMatch(/^updated: +\d+s ago$/m);
  });
});
