/**
 * What a first-time user meets in `detour config check` (R-CF-2): a typo of a known key is an error naming
 * the key meant, a misspelled provider is answered with the real one, and redaction hides values, never
 * the words of a message.
 */
import { describe, expect, it } from "vitest";
import { sandboxPerFile } from "./helpers/sandbox-per-file.js";

const sandbox = sandboxPerFile();

describe("detour config check for a newcomer's mistakes", () => {
  it("R-CF-2 a typo of a known key (fallback, gatway) fails the check with exit 2 and a did-you-mean", async () => {
    const file = sandbox.writeConfig(
      { agents: { defaults: { model: { primary: "openai/gpt-5", fallback: ["anthropic/claude-sonnet-4-6"] } } }, gatway: { port: 4242 } },
      "typo.json5",
    );
    const result = await sandbox.run(["--config", file, "config", "check"]);
    expect(result.code, result.stdout + result.stderr).toBe(2);
    expect(result.stdout).not.toContain("Config OK");
    expect(result.stderr).toContain('agents.defaults.model.fallback: unknown key; did you mean "fallbacks"?');
    expect(result.stderr).toContain('gatway: unknown key; did you mean "gateway"?');

    const json = await sandbox.run(["--config", file, "config", "check", "--json"]);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      issues: expect.arrayContaining([expect.objectContaining({ path: "gatway" })]),
    });
  });

  it("R-CF-2 an unknown key far from every known key is still only a warning", async () => {
    const file = sandbox.writeConfig({ channels: { telegram: {} }, agents: { defaults: { model: "openai/gpt-5" } } }, "unrelated.json5");
    const result = await sandbox.run(["--config", file, "config", "check"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("channels: unknown key, ignored");
    expect(result.stdout).toContain("Config OK");
  });

  it("R-GW-3 a misspelled provider in the fallbacks is answered with the real provider", async () => {
    const file = sandbox.writeConfig(
      { agents: { defaults: { model: { primary: "openai/gpt-5", fallbacks: ["anthropc/claude-sonnet-4-6", "claude-sonet-4-6"] } } } },
      "provider-typo.json5",
    );
    const result = await sandbox.run(["--config", file, "config", "check"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('fallbacks[0]: unknown provider "anthropc"; did you mean "anthropic/claude-sonnet-4-6"?');
    expect(result.stderr).not.toContain('did you mean "anthropc/');
  });

  it("R-OB-2 validation of a secret-looking key keeps the message words; secret values are still redacted", async () => {
    const secret = "sk-proj-newcomer0123456789abcdef";
    const file = sandbox.writeConfig(
      {
        models: { providers: { mine: { api: "openai-completions", baseUrl: "http://127.0.0.1:1", headers: { Authorization: 5 } } } },
        agents: { defaults: { model: { primary: "openai/gpt-5", fallbacks: [`${secret}/x`] } } },
      },
      "secret-key.json5",
    );
    const result = await sandbox.run(["--config", file, "config", "check"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("models.providers.mine.headers.Authorization: expected a string, received number");
    expect(result.stderr).not.toContain(secret);
  });
});

describe("detour run --agent", () => {
  it("R-GW-8 an agent that is not configured is refused with exit 2, and no store or folder is created for it", async () => {
    const { existsSync, readdirSync } = await import("node:fs");
    const file = sandbox.writeConfig({ agents: { defaults: { model: "openai/gpt-5" }, list: [{ id: "work" }] } }, "agents.json5");
    const result = await sandbox.run(["--config", file, "run", "hello", "--agent", "ghost"], {
      env: { OPENAI_API_KEY: "sk-agent-test-0123456789" },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no agent "ghost" is configured; known agents: main, work');
    const agentsDir = `${sandbox.detourHome}/agents`;
    expect(existsSync(agentsDir) ? readdirSync(agentsDir) : []).not.toContain("ghost");
  });
});
