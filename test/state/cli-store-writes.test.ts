/**
 * R-SB-5 and R-GW-8 through the built CLI: with Redis not answering, `auth add` fails naming it (exit 1, no
 * "Stored"), `doctor` reports the store as a problem; `sessions prune` and `sessions remove` work on SQLite.
 */
import { describe, expect, it } from "vitest";
import { openStateStore } from "../../src/state/open-store.js";
import { sandboxPerFile } from "../cli/helpers/sandbox-per-file.js";
import { sparePort } from "./helpers/redis.js";

const sandbox = sandboxPerFile();

describe("explicit writes through the CLI", () => {
  it("R-SB-5: auth add with Redis not answering fails naming Redis, exits 1 and never says Stored; doctor reports it", async () => {
    const port = await sparePort();
    const url = `redis://127.0.0.1:${port}`;
    const config = sandbox.writeConfig({ state: { backend: "redis", redis: { url, keyPrefix: "detour-r-sb-5" } } }, "redis.json5");
    const env = { DETOUR_SECRET_KEY: Buffer.alloc(32, 7).toString("base64") };
    const added = await sandbox.run(["--config", config, "auth", "add", "openai", "--id", "openai:lost", "--key", "-"], {
      stdin: "sk-lost-0123456789",
      env,
    });
    expect(added.code).toBe(1);
    expect(added.stdout).not.toContain("Stored");
    expect(added.stderr).toContain(`Redis at ${url}`);
    expect(added.stderr).toContain("nothing was stored");

    const doctor = await sandbox.run(["--config", config, "doctor", "--json"], { env });
    expect(doctor.code).not.toBe(0);
    expect(doctor.stdout).toContain(`Redis at ${url}`);
    expect(doctor.stdout).toMatch(/"status":\s*"problem"/);
  }, 120_000);

  it("R-GW-8: sessions prune removes idle sessions and sessions remove removes one; bad input exits 2", async () => {
    const store = await openStateStore({ backend: "sqlite", detourHome: sandbox.detourHome, env: {} });
    for (const key of ["chat-1", "chat-2", "chat-3"])
      await store.patchSession(key, { modelOverride: "gpt-4o", providerOverride: "openai" });
    await store.close();
    await new Promise((resolve) => setTimeout(resolve, 1_200));

    const kept = await sandbox.run(["sessions", "prune", "--older-than", "1h", "--json"]);
    expect(kept.code, kept.stderr).toBe(0);
    expect(JSON.parse(kept.stdout)).toEqual({ agentId: "main", removed: [] });

    const removedOne = await sandbox.run(["sessions", "remove", "chat-2"]);
    expect(removedOne.code, removedOne.stderr).toBe(0);
    expect(removedOne.stdout).toContain("Removed session chat-2.");
    const missing = await sandbox.run(["sessions", "remove", "chat-2"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No session "chat-2"');

    const pruned = await sandbox.run(["sessions", "prune", "--older-than", "1s", "--json"]);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(JSON.parse(pruned.stdout).removed.sort()).toEqual(["chat-1", "chat-3"]);
    const list = await sandbox.run(["sessions", "list", "--json"]);
    expect(JSON.parse(list.stdout).sessions).toEqual([]);

    const bad = await sandbox.run(["sessions", "prune", "--older-than", "soon"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Invalid --older-than "soon"');
    const help = await sandbox.run(["sessions", "prune", "--help"]);
    expect(help.stdout).toContain("detour sessions prune --older-than 7d");
  }, 180_000);
});
