/**
 * R-AP-2 and R-AP-3 through the library API: where secrets come from, and how the stored order and
 * lastGood behave.
 */
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/index.js";
import { httpError } from "../../src/testing/scripted-provider.js";
import { PRIMARY, apiKey, makeHarness, succeeded } from "../runner/harness.js";

const STRICT_OPENAI = { agents: { defaults: { model: { primary: PRIMARY, fallbacks: [] } } } };

describe("auth profile store", () => {
  it("R-AP-2: keyRef.env reads a profile's key from the environment instead of the store", async () => {
    const h = await makeHarness({
      profiles: {},
      env: { WORK_OPENAI_KEY: "sk-from-env-123" },
      config: {
        ...STRICT_OPENAI,
        auth: { profiles: { "openai:work": { provider: "openai", mode: "api_key", keyRef: { env: "WORK_OPENAI_KEY" } } } },
      },
    });
    const out = succeeded(await h.runToEnd());
    expect(out.profileId).toBe("openai:work");
    expect(h.provider("openai").calls[0]?.credentialType).toBe("api_key");
    // The secret is never written to the store: the config holds the reference, the env holds the key.
    expect(await h.store.getProfile("openai:work")).toBeUndefined();
  });

  it("R-AP-2: a secret written into the config file is not a config key (warned, never used as a credential)", () => {
    const { warnings } = parseConfig({
      auth: { profiles: { "openai:a": { provider: "openai", mode: "api_key", key: "sk-in-config-file" } } },
    });
    expect(warnings.join("\n")).toMatch(/auth\.profiles\.openai:a\.key|key/);
    expect(warnings.join("\n")).not.toContain("sk-in-config-file");
  });

  it("R-AP-3: a stored order wins over auth.order", async () => {
    const h = await makeHarness({
      profiles: { "openai:a": apiKey("openai", "sk-a"), "openai:b": apiKey("openai", "sk-b") },
      config: { ...STRICT_OPENAI, auth: { order: { openai: ["openai:a", "openai:b"] } } },
    });
    await h.store.setStoredOrder("openai", ["openai:b", "openai:a"]);
    expect(succeeded(await h.runToEnd()).profileId).toBe("openai:b");
    expect(succeeded(await h.runToEnd()).profileId).toBe("openai:b");
    await h.store.setStoredOrder("openai", undefined);
    expect(succeeded(await h.runToEnd()).profileId).toBe("openai:a");
  });

  it("R-AP-3: lastGood is updated on success and shown in status, but does not decide the order", async () => {
    const h = await makeHarness({
      profiles: { "openai:a": apiKey("openai", "sk-a"), "openai:b": apiKey("openai", "sk-b") },
      config: { ...STRICT_OPENAI, auth: { order: { openai: ["openai:a", "openai:b"] } } },
    });
    h.provider("openai").script({ profileId: "openai:a" }, httpError(429, "Rate limit reached for requests"));
    expect(succeeded(await h.runToEnd()).profileId).toBe("openai:b");
    expect(await h.store.getLastGood("openai")).toBe("openai:b");

    const status = await h.detour.status();
    const profiles = status.agents[0]?.profiles ?? [];
    expect(profiles.find((profile) => profile.id === "openai:b")?.lastGood).toBe(true);
    expect(profiles.find((profile) => profile.id === "openai:a")?.lastGood).toBe(false);

    // Once openai:a's cooldown has passed, the configured order (not lastGood) decides again.
    await h.clock.advanceAsync(10 * 60 * 1000);
    expect(succeeded(await h.runToEnd()).profileId).toBe("openai:a");
    expect(await h.store.getLastGood("openai")).toBe("openai:a");
  });
});
