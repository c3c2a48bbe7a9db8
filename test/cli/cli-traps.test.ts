/**
 * The CLI and config traps a new user meets: replacing a profile, bogus OAuth payloads,
 * unset key variables, unknown providers and ghost pins, read-only commands that must not write, a port in
 * use, and a status that pages its sessions (R-GW-8).
 */
import { existsSync, readdirSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openStateStore } from "../../src/state/open-store.js";
import { ensureBuilt } from "./helpers/build.js";
import { createSandbox, type Sandbox } from "./helpers/run-detour.js";

let sandbox: Sandbox;
beforeAll(async () => {
  await ensureBuilt();
}, 180_000);

const sandboxes: Sandbox[] = [];
function fresh(): Sandbox {
  sandbox = createSandbox();
  sandboxes.push(sandbox);
  return sandbox;
}
afterEach(() => {
  for (const used of sandboxes.splice(0)) used.cleanup();
});
afterAll(() => undefined);

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

describe("auth add", () => {
  it("R-AP-1: auth add refuses to replace an existing profile without --force (exit 2, says how)", async () => {
    const box = fresh();
    const first = await box.run(["auth", "add", "openai", "--key", "-"], { stdin: "sk-first-0123456789abcdef" });
    expect(first.code, first.stderr).toBe(0);
    const again = await box.run(["auth", "add", "openai", "--type", "oauth", "--key", "-"], { stdin: '{"refresh":"rt-bogus-123"}' });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("Profile openai:default already exists");
    expect(again.stderr).toContain("--force");
    const listed = JSON.parse((await box.run(["auth", "list", "--json"])).stdout) as { profiles: { id: string; type: string }[] };
    expect(listed.profiles).toEqual([expect.objectContaining({ id: "openai:default", type: "api_key" })]);
    const forced = await box.run(["auth", "add", "openai", "--key", "-", "--force", "--json"], { stdin: "sk-second-0123456789abcdef" });
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({ replaced: true });
  });

  it.each([
    ["an API key as OAuth", "sk-proj-0123456789abcdef", /looks like an API key/],
    ["an empty object", "{}", /needs an access or a refresh token/],
    ["an unknown field", '{"refresh":"rt-1","key":"sk-x"}', /unexpected field\(s\) key/],
    ["a numeric refresh", '{"refresh":42}', /`refresh` must be a string/],
    ["an access token without refresh or expiry", '{"access":"at-1"}', /needs `expires`/],
    ["expires as text", '{"refresh":"rt-1","expires":"tomorrow"}', /epoch milliseconds/],
  ])("R-AP-5: auth add --type oauth refuses %s before storing anything", async (_name, payload, message) => {
    const box = fresh();
    const result = await box.run(["auth", "add", "anthropic", "--type", "oauth", "--key", "-"], { stdin: payload });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(filesUnder(join(box.detourHome, "agents"))).toEqual([]);
  });
});

describe("config traps", () => {
  it("R-AP-2: an unset keyRef.env variable is reported by config check, doctor and the gateway start, naming it", async () => {
    const box = fresh();
    box.writeConfig({
      auth: { profiles: { "openai:work": { provider: "openai", mode: "api_key", keyRef: { env: "WORK_OPENAI_KEY" } } } },
      agents: { defaults: { model: "openai/gpt-4o" } },
    });
    const check = await box.run(["config", "check"]);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stderr).toContain('auth.profiles["openai:work"].keyRef.env: environment variable WORK_OPENAI_KEY is not set');
    const doctor = await box.run(["doctor", "--json"]);
    const report = JSON.parse(doctor.stdout) as { checks: { name: string; status: string; detail: string }[] };
    expect(report.checks.find((entry) => entry.name === "key variables")).toMatchObject({ status: "problem" });
    expect(report.checks.find((entry) => entry.name === "key variables")?.detail).toContain("WORK_OPENAI_KEY");
    const set = await box.run(["config", "check"], { env: { WORK_OPENAI_KEY: "sk-set-0123456789" } });
    expect(set.stderr).not.toContain("WORK_OPENAI_KEY");

    const gateway = box.spawn(["gateway", "--port", "0"]);
    let stderr = "";
    gateway.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no warning: ${stderr}`)), 15_000);
      const poll = setInterval(() => {
        if (stderr.includes("WORK_OPENAI_KEY")) {
          clearTimeout(timer);
          clearInterval(poll);
          resolve();
        }
      }, 50);
    }).finally(() => gateway.kill("SIGTERM"));
    expect(stderr).toContain("profile openai:work has no key");
  }, 30_000);

  it("R-AP-2: a run whose only profile lacks its variable names the variable in the error", async () => {
    const box = fresh();
    box.writeConfig({
      auth: { profiles: { "openai:work": { provider: "openai", mode: "api_key", keyRef: { env: "WORK_OPENAI_KEY" } } } },
      agents: { defaults: { model: "openai/gpt-4o" } },
    });
    const run = await box.run(["run", "hi"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("environment variable WORK_OPENAI_KEY is not set");
  });

  it("R-GW-3: an unknown provider in a fallback chain is refused at load with the known providers", async () => {
    const box = fresh();
    box.writeConfig({ agents: { defaults: { model: { primary: "openai/gpt-4o", fallbacks: ["opnai/gpt-4o"] } } } });
    const check = await box.run(["config", "check"]);
    expect(check.code).toBe(2);
    expect(check.stderr).toContain(
      'agents.defaults.model.fallbacks[0]: unknown provider "opnai"; did you mean "openai/gpt-4o"? known providers: anthropic',
    );
  });

  it("R-GW-3: bare model names in the config are read as the provider that offers them, and ambiguous ones are refused", async () => {
    const box = fresh();
    box.writeConfig({ agents: { defaults: { model: { primary: "gpt-4o", fallbacks: ["claude-sonnet-4"] } } } });
    const check = await box.run(["config", "check", "--json"]);
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({
      ok: true,
      warnings: [
        'agents.defaults.model.primary: bare model name "gpt-4o" read as "openai/gpt-4o"; write it so to keep that meaning',
        'agents.defaults.model.fallbacks[0]: bare model name "claude-sonnet-4" read as "anthropic/claude-sonnet-4"; write it so to keep that meaning',
      ],
    });
    const providers = { vllm: { api: "openai-chat", baseUrl: "http://127.0.0.1:8000/v1", models: [{ id: "gpt-4o" }] } };
    box.writeConfig({ models: { providers }, agents: { defaults: { model: { primary: "openai/gpt-4o", fallbacks: ["gpt-4o"] } } } });
    const ambiguous = await box.run(["config", "check"]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(
      'agents.defaults.model.fallbacks[0]: expected "provider/model": model "gpt-4o" is offered by several providers (openai/gpt-4o, vllm/gpt-4o)',
    );
    // The same name on the command line is refused the same way.
    box.writeConfig({ models: { providers }, agents: { defaults: { model: { primary: "openai/gpt-4o" } } } });
    const run = await box.run(["run", "hi", "--model", "gpt-4o"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('model "gpt-4o" is offered by several providers (openai/gpt-4o, vllm/gpt-4o)');
  });

  it("R-SO-4: sessions patch refuses unknown providers, unresolvable bare names and ghost pins", async () => {
    const box = fresh();
    await box.run(["auth", "add", "openai", "--key", "-"], { stdin: "sk-first-0123456789abcdef" });
    const unknown = await box.run(["sessions", "patch", "s1", "--model", "nope/x"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown provider "nope"; known providers: .*openai/);
    const bare = await box.run(["sessions", "patch", "s1", "--model", "no-such-model-anywhere"]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("no known provider offers it");
    const ghost = await box.run(["sessions", "patch", "s1", "--model", "openai/gpt-4o", "--profile", "openai:ghost"]);
    expect(ghost.code).toBe(2);
    expect(ghost.stderr).toContain('No profile "openai:ghost" exists for agent main (known: openai:default)');
    const sessions = JSON.parse((await box.run(["sessions", "list", "--json"])).stdout) as { sessions: unknown[] };
    expect(sessions.sessions).toEqual([]);
    const good = await box.run(["sessions", "patch", "s1", "--model", "gpt-4o", "--profile", "openai:default", "--json"]);
    expect(good.code, good.stderr).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ selectedModel: "openai/gpt-4o", authProfileOverride: "openai:default" });
  });
});

describe("read-only commands", () => {
  it("R-SB-4: status, auth list, config check and doctor without --fix create no file in a fresh home", async () => {
    const box = fresh();
    for (const args of [["status"], ["status", "--json"], ["auth", "list"], ["config", "check"], ["doctor"]]) {
      await box.run(args);
      expect(filesUnder(box.detourHome), args.join(" ")).toEqual([]);
    }
  });

  it("R-SB-4: with Redis and no DETOUR_SECRET_KEY, status creates no key file and says what to set", async () => {
    const box = fresh();
    box.writeConfig({
      state: { backend: "redis", redis: { url: "redis://127.0.0.1:6379", keyPrefix: `detour-cli-traps-${process.pid}` } },
    });
    const status = await box.run(["status"]);
    expect(existsSync(join(box.detourHome, "secret.key"))).toBe(false);
    expect(status.code).toBe(1);
    expect(status.stderr).toContain("DETOUR_SECRET_KEY is not set");
    expect(status.stderr).not.toContain("cannot be decrypted");
  });
});

describe("gateway start and status pages", () => {
  let blocker: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve()));
    blocker = undefined;
  });

  it("R-GW-1: a port in use exits 1 naming the port and suggesting --port", async () => {
    const box = fresh();
    blocker = createServer();
    const port = await new Promise<number>((resolve) => {
      blocker!.listen(0, "127.0.0.1", () => resolve((blocker!.address() as { port: number }).port));
    });
    const result = await box.run(["gateway", "--port", String(port)], { env: { OPENAI_API_KEY: "sk-port-test-0123456789" } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    expect(result.stderr).toContain("--port");
  });

  it("R-GW-1: a busy port is reported before a missing credential", async () => {
    const box = fresh();
    blocker = createServer();
    const port = await new Promise<number>((resolve) => {
      blocker!.listen(0, "127.0.0.1", () => resolve((blocker!.address() as { port: number }).port));
    });
    const result = await box.run(["gateway", "--port", String(port)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    expect(result.stderr).not.toMatch(/no credential/i);
  });

  it.each([
    ["without a credential", [] as string[]],
    ["with a credential", ["OPENAI_API_KEY"]],
  ])("R-GW-1: a host name that does not resolve is reported first, in words (%s)", async (_title, keys) => {
    const box = fresh();
    const env = Object.fromEntries(keys.map((key) => [key, "sk-bind-test-0123456789"]));
    const result = await box.run(["gateway", "--host", "nosuchhost.invalid"], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Cannot start the gateway on "nosuchhost.invalid": the name does not resolve');
    expect(result.stderr).not.toMatch(/no credential|anyone on the network|getaddrinfo/i);
  });

  it("R-GW-8: detour status shows a page of sessions with the total", async () => {
    const box = fresh();
    const secretKey = Buffer.alloc(32, 3).toString("base64");
    const store = await openStateStore({ backend: "sqlite", detourHome: box.detourHome, secretKey });
    for (let index = 0; index < 60; index += 1) {
      await store.patchSession(`s${index}`, { providerOverride: "openai", modelOverride: "gpt-4o", updatedAt: 1_000 + index });
    }
    await store.close();
    const env = { DETOUR_SECRET_KEY: secretKey };
    const status = await box.run(["status"], { env });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout.split("\n").length).toBeLessThan(75);
    expect(status.stdout).toContain("Sessions 1–50 of 60");
    const json = JSON.parse((await box.run(["status", "--json", "--sessions-limit", "5", "--sessions-offset", "58"], { env })).stdout);
    expect(json.sessionsTotal).toBe(60);
    expect(json.sessions).toHaveLength(2);
    const bad = await box.run(["status", "--sessions-limit", "0"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--sessions-limit");
  });
});
