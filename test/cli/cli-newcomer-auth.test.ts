/**
 * `detour auth add`, `auth order show` and `sessions patch` where a newcomer went wrong: a key stored under
 * a profile the config feeds from an environment variable, a misspelled provider, a pin of another provider,
 * and an order that could be set but not read back (R-AP-2, R-AP-3, R-PO-6).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "./helpers/build.js";
import { createSandbox, type Sandbox } from "./helpers/run-detour.js";
import { secretFingerprint } from "../../src/cli/fingerprint.js";

const ENV_KEY = "sk-newcomer-env-key-0123456789abcdef";
const STORED_KEY = "sk-newcomer-stored-key-fedcba9876543210";
const ANTHROPIC_KEY = "sk-ant-newcomer-key-0123456789abcdef";

let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  await ensureBuilt();
  sandbox = createSandbox();
  env = { DETOUR_SECRET_KEY: Buffer.alloc(32, 9).toString("base64") };
  sandbox.writeConfig({
    agents: { defaults: { model: { primary: "anthropic/claude-sonnet-4-6", fallbacks: ["anthropic/claude-haiku-4-5"] } } },
    auth: { profiles: { "openai:work": { provider: "openai", mode: "api_key", keyRef: { env: "OPENAI_WORK_KEY" } } } },
  });
}, 180_000);
afterAll(() => sandbox.cleanup());

describe("auth add", () => {
  it("R-AP-2 refuses to store a key under a profile whose key the config takes from an environment variable", async () => {
    const refused = await sandbox.run(["auth", "add", "openai", "--id", "openai:work", "--key", "-"], { stdin: STORED_KEY, env });
    expect(refused.code).toBe(2);
    expect(refused.stdout).not.toContain("Stored");
    expect(refused.stderr).toContain("takes its key from $OPENAI_WORK_KEY");
    expect(refused.stderr).toContain("--force");
    expect(refused.stderr).not.toContain(STORED_KEY);
    const list = await sandbox.run(["auth", "list", "--json"], { env });
    expect(JSON.parse(list.stdout).profiles.find((profile: { id: string }) => profile.id === "openai:work").fingerprint).toBeNull();
  });

  it("R-AP-2 with --force it stores the key and says which key is used; auth list shows the fingerprint of the key in use", async () => {
    const forced = await sandbox.run(["auth", "add", "openai", "--id", "openai:work", "--key", "-", "--force"], {
      stdin: STORED_KEY,
      env: { ...env, OPENAI_WORK_KEY: ENV_KEY },
    });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain(
      "takes its key from $OPENAI_WORK_KEY whenever that variable is set; $OPENAI_WORK_KEY is set here, so its key is the one used",
    );

    const withEnv = JSON.parse((await sandbox.run(["auth", "list", "--json"], { env: { ...env, OPENAI_WORK_KEY: ENV_KEY } })).stdout);
    expect(withEnv.profiles.find((profile: { id: string }) => profile.id === "openai:work")).toMatchObject({
      origin: "env",
      fingerprint: secretFingerprint(ENV_KEY),
    });
    const withoutEnv = JSON.parse((await sandbox.run(["auth", "list", "--json"], { env })).stdout);
    expect(withoutEnv.profiles.find((profile: { id: string }) => profile.id === "openai:work").fingerprint).toBe(
      secretFingerprint(STORED_KEY),
    );
  });

  it("R-AP-1 an unknown provider is an error with the provider it most likely meant; nothing is stored", async () => {
    const result = await sandbox.run(["auth", "add", "opnai", "--key", "-"], { stdin: STORED_KEY, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown provider "opnai"; did you mean "openai"?');
    const list = JSON.parse((await sandbox.run(["auth", "list", "--json"], { env })).stdout) as { profiles: { id: string }[] };
    expect(list.profiles.map((profile) => profile.id)).not.toContain("opnai:default");
  });
});

describe("auth order show", () => {
  it("R-AP-3 reads back the stored order, the configured one, or says there is none", async () => {
    expect((await sandbox.run(["auth", "add", "anthropic", "--key", "-"], { stdin: ANTHROPIC_KEY, env })).code).toBe(0);
    const before = await sandbox.run(["auth", "order", "show"], { env });
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toContain("anthropic: -  (no order set: profiles are tried round robin)");

    expect(
      (await sandbox.run(["auth", "add", "openai", "--id", "openai:home", "--key", "-"], { stdin: "sk-newcomer-home-0123456789", env }))
        .code,
    ).toBe(0);
    expect((await sandbox.run(["auth", "order", "set", "openai", "openai:home", "openai:work"], { env })).code).toBe(0);
    const shown = await sandbox.run(["auth", "order", "show", "openai"], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout.trim()).toBe("openai: openai:home → openai:work  (stored with `detour auth order set`)");
    const json = JSON.parse((await sandbox.run(["auth", "order", "show", "--json"], { env })).stdout);
    expect(json.orders).toEqual([
      { provider: "anthropic", profiles: null, source: "none" },
      { provider: "openai", profiles: ["openai:home", "openai:work"], source: "stored" },
    ]);
  });
});

describe("sessions patch --profile", () => {
  it("R-PO-6 refuses a pin of another provider than the session's model, in plain grammar", async () => {
    const chose = await sandbox.run(["sessions", "patch", "s-claude", "--model", "anthropic/claude-sonnet-4-6"], { env });
    expect(chose.code, chose.stderr).toBe(0);
    const pin = await sandbox.run(["sessions", "patch", "s-claude", "--profile", "openai:home"], { env });
    expect(pin.code).toBe(2);
    expect(pin.stderr).toContain('Profile "openai:home" belongs to openai, not to anthropic');
    expect(pin.stderr).toContain("pin an anthropic profile or choose an openai model");
    const shown = JSON.parse((await sandbox.run(["sessions", "show", "s-claude", "--json"], { env })).stdout);
    expect(shown.authProfileOverride).toBeUndefined();

    // A session on the agent's chain (all Anthropic here) refuses it too; an Anthropic pin is fine.
    expect((await sandbox.run(["sessions", "patch", "s-new", "--profile", "openai:home"], { env })).code).toBe(2);
    const good = await sandbox.run(["sessions", "patch", "s-claude", "--profile", "anthropic:default"], { env });
    expect(good.code, good.stderr).toBe(0);
    const combined = await sandbox.run(["sessions", "patch", "s-claude", "--model", "openai/gpt-5", "--profile", "anthropic:default"], {
      env,
    });
    expect(combined.code).toBe(2);
    expect(combined.stderr).toContain("pin an openai profile or choose an anthropic model");
  });
});
