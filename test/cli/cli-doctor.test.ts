/**
 * `detour doctor`: config check, file modes (R-SB-4), store integrity (R-SB-3) and the OpenClaw legacy
 * import (R-AP-6), idempotent, as spawned processes.
 */
import { chmodSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./helpers/build.js";
import { sandboxPerFile } from "./helpers/sandbox-per-file.js";

const OPENCLAW_FIXTURE = resolve(repoRoot, "src/state/__fixtures__/openclaw");
const FIXTURE_SECRETS = ["sk-fixture-openai-default", "sk-fixture-openai-backup", "fixture-codex-refresh", "fixture-openrouter-token"];

interface DoctorJson {
  ok: boolean;
  checks: { name: string; status: string; detail: string }[];
  legacyImport: { imported: string[]; skipped: string[] } | null;
}

const sandbox = sandboxPerFile();

function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

describe("detour doctor", () => {
  it("R-SB-4: doctor reports loose file modes, --fix tightens them, a second run finds nothing", async () => {
    const added = await sandbox.run(["auth", "add", "openai", "--key", "-"], { stdin: "sk-doctor-test-0123456789" });
    expect(added.code, added.stderr).toBe(0);
    const storeFile = join(sandbox.detourHome, "agents/main/agent/detour-agent.sqlite");
    chmodSync(sandbox.detourHome, 0o755);
    chmodSync(storeFile, 0o644);

    const report = await sandbox.run(["doctor", "--json"]);
    expect(report.code, report.stderr).toBe(1);
    const found = JSON.parse(report.stdout) as DoctorJson;
    expect(found.ok).toBe(false);
    const problems = found.checks.filter((check) => check.status === "problem").map((check) => check.detail);
    expect(problems).toEqual([`${sandbox.detourHome} is 0755, expected 0700 (run with --fix)`]);
    // Opening the store for its integrity check tightens the store file itself; the report says so.
    const storeLine = found.checks.find((check) => check.detail.startsWith(storeFile));
    expect(storeLine).toMatchObject({ status: "fixed", detail: `${storeFile} is now 0600 (tightened when its store was opened)` });

    const fixed = await sandbox.run(["doctor", "--fix", "--json"]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(
      (JSON.parse(fixed.stdout) as DoctorJson).checks.filter((check) => check.status === "fixed").map((check) => check.detail),
    ).toEqual([`${sandbox.detourHome}: 0755 → 0700`]);
    expect(mode(sandbox.detourHome)).toBe(0o700);
    expect(mode(storeFile)).toBe(0o600);

    const again = await sandbox.run(["doctor"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/file modes\s+ok/);
    expect(again.stdout).toMatch(/store main\s+ok\s+integrity ok; 1 profile\(s\)/);
  });

  it("R-AP-6: doctor --fix --from imports OpenClaw state once; a second run imports nothing new", async () => {
    const first = await sandbox.run(["doctor", "--fix", "--from", OPENCLAW_FIXTURE, "--json"]);
    expect(first.code, first.stderr).toBe(0);
    const imported = JSON.parse(first.stdout) as DoctorJson;
    // Paths inside --from are reported relative to it, so each line stays readable.
    expect(imported.legacyImport?.imported).toContain("profile openai:backup (from agents/main/agent/auth-profiles.json)");
    expect(imported.checks.find((check) => check.name === "legacy import")?.status).toBe("fixed");
    // The profile Detour already had (openai:default, added above) is kept, not overwritten.
    expect(imported.legacyImport?.skipped).toEqual(
      expect.arrayContaining([expect.stringMatching(/^profile openai:default .*kept Detour's/)]),
    );

    const second = await sandbox.run(["doctor", "--fix", "--from", OPENCLAW_FIXTURE]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("imported: nothing new");
    expect(second.stdout).toMatch(/legacy import\s+ok\s+0 item\(s\) imported/);
    expect(second.stdout).not.toMatch(/^ {2}imported (profile|order|lastGood|usageStats) /m);

    const listed = await sandbox.run(["auth", "list", "--json"]);
    const ids = (JSON.parse(listed.stdout) as { profiles: { id: string }[] }).profiles.map((profile) => profile.id);
    expect(ids).toEqual(expect.arrayContaining(["openai:default", "openai:backup", "anthropic:ada@example.com"]));
    for (const output of [first.stdout, first.stderr, second.stdout, second.stderr, listed.stdout]) {
      for (const secret of FIXTURE_SECRETS) expect(output).not.toContain(secret);
    }
  });

  it("R-SB-3: a store that is not a database is reported as a problem (exit 1)", async () => {
    const brokenDir = join(sandbox.detourHome, "agents/broken/agent");
    mkdirSync(brokenDir, { recursive: true, mode: 0o700 });
    chmodSync(join(sandbox.detourHome, "agents/broken"), 0o700);
    writeFileSync(join(brokenDir, "detour-agent.sqlite"), "this is not a SQLite database, just text ".repeat(200), { mode: 0o600 });
    const result = await sandbox.run(["doctor", "--json"]);
    expect(result.code, result.stderr).toBe(1);
    const report = JSON.parse(result.stdout) as DoctorJson;
    expect(report.checks.find((check) => check.name === "store broken")).toMatchObject({ status: "problem" });
    expect(report.checks.find((check) => check.name === "store main")).toMatchObject({ status: "ok" });
  });

  it.each([
    [["doctor", "--from", "."], /needs --fix/],
    [["doctor", "--fix", "--from", "./no-such-dir"], /--from \.\/no-such-dir: no such directory/],
  ])("R-CL-1: %j exits 2 naming the problem", async (args, message) => {
    const result = await sandbox.run(args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it("R-GW-13: doctor says which hosts and browser origins the gateway answers, and how to allow more", async () => {
    const plain = await sandbox.run([
      "--config",
      sandbox.writeConfig({ gateway: { port: 4199 } }, "doctor-guard-plain.json5"),
      "doctor",
      "--json",
    ]);
    const plainChecks = (JSON.parse(plain.stdout) as DoctorJson).checks;
    expect(plainChecks.find((check) => check.name === "gateway hosts")).toMatchObject({
      status: "ok",
      detail: expect.stringContaining("127.0.0.1"),
    });
    expect(plainChecks.find((check) => check.name === "gateway hosts")?.detail).toContain("port 4199");
    expect(plainChecks.find((check) => check.name === "gateway hosts")?.detail).toContain("gateway.allowedHosts");
    expect(plainChecks.find((check) => check.name === "gateway origins")?.detail).toContain("gateway.allowedOrigins");

    const listed = sandbox.writeConfig(
      { gateway: { allowedHosts: ["detour.example.com"], allowedOrigins: ["https://chat.example.com"] } },
      "doctor-guard.json5",
    );
    const report = await sandbox.run(["--config", listed, "doctor"]);
    expect(report.stdout).toMatch(/gateway hosts\s+ok\s+.*detour\.example\.com/);
    expect(report.stdout).toMatch(/gateway origins\s+ok\s+.*https:\/\/chat\.example\.com/);
  });

  it("R-CF-2: doctor with an invalid config exits 2 and names the invalid path", async () => {
    const path = sandbox.writeConfig({ gateway: { port: -1 } }, "doctor-bad.json5");
    const result = await sandbox.run(["--config", path, "doctor"]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain("gateway.port");
    expect(result.stdout).toMatch(/config\s+PROBLEM/);
  });
});
