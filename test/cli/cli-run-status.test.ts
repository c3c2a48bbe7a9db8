/**
 * `detour run` and `detour status` against a loopback mock provider started by the test: fallback with the
 * notice on stderr, strict `--model`, cooldowns after scripted 429s in `status --json`, `auth reset` (R-CD-8),
 * and a secret grep over everything printed (R-OB-2).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStateStore } from "../../src/state/open-store.js";
import { startMockProvider, type MockProvider } from "../../src/testing/mock-provider/index.js";
import { ensureBuilt } from "./helpers/build.js";
import { createSandbox, type CliResult, type Sandbox } from "./helpers/run-detour.js";

const KEYS = {
  openaiA: "sk-runtest-openai-a-0123456789abcdef",
  openaiB: "sk-runtest-openai-b-fedcba9876543210",
  anthropic: "sk-ant-runtest-0123456789abcdef0123",
};

let sandbox: Sandbox;
let mock: MockProvider;
let configPath: string;
const printed: string[] = [];

async function detour(args: readonly string[], options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  const result = await sandbox.run(["--config", configPath, ...args], { ...options, env: { DETOUR_LOG_LEVEL: "debug", ...options.env } });
  printed.push(result.stdout, result.stderr);
  return result;
}

interface StatusJson {
  profiles: { id: string; usable: boolean; unusableUntil?: number; unusableReason?: string; stats: Record<string, unknown> }[];
  sessions: { sessionKey: string; selectedModel?: string; fallbackOrigin?: string }[];
}

beforeAll(async () => {
  await ensureBuilt();
  sandbox = createSandbox();
  // Every OpenAI call is rate-limited and the key is echoed back in the error text, as some providers do.
  mock = await startMockProvider({
    scenario: {
      rules: [
        {
          name: "openai-429",
          match: { api: "openai" },
          steps: [{ fault: "rate-limit", message: `Rate limit reached for key ${KEYS.openaiA} (and ${KEYS.openaiB})` }],
          then: "repeat-last",
        },
        { name: "silent-model", match: { model: "mock-silent" }, steps: ["silence"], then: "repeat-last" },
      ],
    },
  });
  configPath = sandbox.writeConfig({
    models: {
      providers: {
        openai: { baseUrl: `${mock.url}/v1` },
        anthropic: { baseUrl: mock.url },
      },
    },
    agents: {
      defaults: {
        model: { primary: "openai/mock-gpt", fallbacks: ["anthropic/mock-claude"] },
        modelFailover: { retrySameProfileOnTimeout: 0, shortWaitSeconds: 0, waitForCooldownMaxSeconds: 0 },
      },
    },
  });
  for (const [provider, id, key] of [
    ["openai", "openai:a", KEYS.openaiA],
    ["openai", "openai:b", KEYS.openaiB],
    ["anthropic", "anthropic:a", KEYS.anthropic],
  ] as const) {
    const added = await detour(["auth", "add", provider, "--id", id, "--key", "-"], { stdin: key });
    expect(added.code, added.stderr).toBe(0);
  }
}, 180_000);

afterAll(async () => {
  await mock?.close();
  sandbox?.cleanup();
});

describe("detour run", () => {
  it("R-CL-1: run falls back past the rate-limited primary, answer on stdout, notice and attempts on stderr", async () => {
    const result = await detour(["run", "Say hello", "--session", "chat-1", "--verbose"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("mock-claude");
    expect(result.stdout).not.toContain("Model Fallback");
    expect(result.stderr).toContain("↪️ Model Fallback: anthropic/mock-claude (selected openai/mock-gpt; 429 Too Many Requests)");
    expect(result.stderr).toMatch(/Attempts:\n {2}failed openai\/mock-gpt \[openai:[ab]\]: rate_limit 429 — Rate limit reached/);
    expect(result.stderr).toContain("Answered by anthropic/mock-claude [anthropic:a].");
  });

  it("R-CL-1: run --json prints { text, provider, model, profileId, attempts, notice }", async () => {
    const result = await detour(["run", "Again", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(out).sort()).toEqual(["attempts", "model", "notice", "profileId", "provider", "text"]);
    expect(out).toMatchObject({ provider: "anthropic", model: "mock-claude", profileId: "anthropic:a" });
    expect(typeof out.text).toBe("string");
  });

  it("R-CH-2: run --model is a strict one-off selection: no fallback, failure exits 1", async () => {
    const strict = await detour(["run", "Only OpenAI", "--model", "openai/mock-gpt", "--json"]);
    expect(strict.code, strict.stderr).toBe(1);
    const failure = JSON.parse(strict.stdout) as { error: { message: string } };
    expect(failure.error.message).not.toContain("mock-claude");
    expect(strict.stderr).toMatch(/openai/);
    const other = await detour(["run", "Only Anthropic", "--model", "anthropic/mock-claude"], { env: { DETOUR_LOG_LEVEL: "" } });
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout).toContain("mock-claude");
    expect(other.stderr).toBe("");
  });

  it("R-CL-1: run --timeout-seconds bounds the whole run; a silent provider fails as a timeout, exit 1", async () => {
    const started = Date.now();
    const result = await detour(["run", "Anyone there?", "--model", "anthropic/mock-silent", "--timeout-seconds", "1", "--json"]);
    expect(result.code, result.stderr).toBe(1);
    expect(Date.now() - started).toBeLessThan(15_000);
    const failure = JSON.parse(result.stdout) as { error: { reason?: string; message: string } };
    expect(failure.error.reason).toBe("timeout");
  });

  it("R-CL-1: run with a bad model ref or an empty prompt exits 2 naming the problem", async () => {
    const badModel = await detour(["run", "hi", "--model", "not a model"]);
    expect(badModel.code, badModel.stderr).toBe(2);
    expect(badModel.stderr).toContain("not a model");
    const unknownProvider = await detour(["run", "hi", "--model", "acme/gpt-9"]);
    expect(unknownProvider.code, unknownProvider.stderr).toBe(2);
    expect(unknownProvider.stderr).toContain('--model "acme/gpt-9": unknown provider "acme"; known providers: ');
    const empty = await detour(["run", "-"], { stdin: "  \n" });
    expect(empty.code, empty.stderr).toBe(2);
    expect(empty.stderr).toContain("The prompt is empty");
  });
});

describe("detour status", () => {
  it("R-CL-1: status --json after scripted 429s shows both OpenAI profiles cooling down", async () => {
    const result = await detour(["status", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const status = JSON.parse(result.stdout) as StatusJson & { now: number };
    const byId = new Map(status.profiles.map((profile) => [profile.id, profile]));
    for (const id of ["openai:a", "openai:b"]) {
      const profile = byId.get(id);
      expect(profile?.usable, id).toBe(false);
      expect(profile?.unusableReason, id).toBe("rate_limit");
      expect(profile?.unusableUntil, id).toBeGreaterThan(status.now);
      expect(profile?.stats.cooldownReason, id).toBe("rate_limit");
    }
    expect(byId.get("anthropic:a")).toMatchObject({ usable: true, lastGood: true });
    expect(status.sessions).toEqual([
      expect.objectContaining({ sessionKey: "chat-1", selectedModel: "anthropic/mock-claude", fallbackOrigin: "openai/mock-gpt" }),
    ]);
  });

  it("R-CL-1: status prints an aligned table; --session narrows to one session", async () => {
    const table = await detour(["status"]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/openai:a\s+openai\s+api_key\s+cooldown rate_limit in (\d+m )?\d+s/);
    const one = await detour(["status", "--session", "chat-1"]);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toMatch(/fallback for:\s+openai\/mock-gpt/);
    const missing = await detour(["status", "--session", "ghost"]);
    expect(missing.code, missing.stderr).toBe(2);
    expect(missing.stderr).toContain('No session "ghost"');
  });

  it("R-GW-7: status shows each profile's spend over the last 24 hours, in the table and in --json", async () => {
    // Spend as a gateway sharing this SQLite file charges it: two answers an hour apart, one from yesterday.
    const store = await openStateStore({ backend: "sqlite", detourHome: sandbox.detourHome, env: sandbox.env });
    const now = Date.now();
    await store.recordSpend("anthropic:a", 0.01, now - 60 * 60 * 1000);
    await store.recordSpend("anthropic:a", 0.0023, now);
    await store.recordSpend("openai:b", 5, now - 25 * 60 * 60 * 1000);
    await store.close();
    const status = JSON.parse((await detour(["status", "--json"])).stdout) as { profiles: { id: string; spendUsd24h: number }[] };
    const spend = Object.fromEntries(status.profiles.map((profile) => [profile.id, profile.spendUsd24h]));
    expect(spend["anthropic:a"]).toBeCloseTo(0.0123, 12);
    expect(spend["openai:b"]).toBe(0);
    const table = await detour(["status"]);
    expect(table.stdout).toMatch(/spend 24h/);
    expect(table.stdout).toMatch(/anthropic:a\s+anthropic\s+api_key\s+ok\s+\d+\s+\$0\.0123\s/);
  });

  it("R-CD-8: auth reset clears every window of a profile at once", async () => {
    const reset = await detour(["auth", "reset", "openai:a"]);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toMatch(/Reset openai:a: cooldown rate_limit in (\d+m )?\d+s cleared; it is usable now\./);
    const status = JSON.parse((await detour(["status", "--json"])).stdout) as StatusJson;
    const profileA = status.profiles.find((profile) => profile.id === "openai:a");
    expect(profileA?.usable).toBe(true);
    expect(profileA?.stats).toEqual({});
    expect(status.profiles.find((profile) => profile.id === "openai:b")?.usable).toBe(false);
  });
});

describe("R-OB-2", () => {
  it("R-OB-2: nothing any command printed contains a seeded secret", async () => {
    const extra = await Promise.all([detour(["auth", "list", "--json"]), detour(["auth", "list"]), detour(["sessions", "list", "--json"])]);
    expect(extra.every((result) => result.code === 0)).toBe(true);
    expect(mock.counts().total).toBeGreaterThan(0);
    const everything = printed.join("\n");
    expect(everything.length).toBeGreaterThan(1000);
    for (const secret of Object.values(KEYS)) {
      expect(everything).not.toContain(secret);
      // Not even a long fragment of it.
      expect(everything).not.toContain(secret.slice(-16));
    }
  });
});
