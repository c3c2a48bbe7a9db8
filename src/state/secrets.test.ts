import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openCredential, resolveSecretKey, SecretBox, sealCredential, SECRET_KEY_FILE_NAME } from "./secrets.js";
import { SecretKeyInvalidError, SecretKeyMismatchError } from "./state-errors.js";

const temporaryDirectories: string[] = [];

function home(): string {
  const directory = mkdtempSync(join(tmpdir(), "detour-secrets-"));
  temporaryDirectories.push(directory);
  return directory;
}

afterEach(() => {
  for (const directory of temporaryDirectories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function box(key = randomBytes(32), source = "a test key"): SecretBox {
  return new SecretBox({ key, source }, "the test store");
}

describe("secrets at rest", () => {
  it("R-SB-4: AES-256-GCM sealing round-trips and never shows the plaintext", () => {
    const secrets = box();
    const first = secrets.seal("sk-very-secret", "profile:a");
    const second = secrets.seal("sk-very-secret", "profile:a");
    expect(first).not.toContain("sk-very-secret");
    expect(first).not.toBe(second);
    expect(secrets.open(first, "profile:a")).toBe("sk-very-secret");
    expect(secrets.open(second, "profile:a")).toBe("sk-very-secret");
  });

  it("R-SB-4: a ciphertext opened with another key or for another record fails with a typed error", () => {
    const sealed = box().seal("sk-very-secret", "profile:a");
    expect(() => box(randomBytes(32), "DETOUR_SECRET_KEY").open(sealed, "profile:a")).toThrow(SecretKeyMismatchError);
    const secrets = box();
    const bound = secrets.seal("sk-very-secret", "profile:a");
    expect(() => secrets.open(bound, "profile:b")).toThrow(SecretKeyMismatchError);
    const tampered = bound.slice(0, -4) + (bound.endsWith("AAAA") ? "BBBB" : "AAAA");
    expect(() => secrets.open(tampered, "profile:a")).toThrow(SecretKeyMismatchError);
    expect(() => secrets.open("plain text", "profile:a")).toThrow(SecretKeyMismatchError);
  });

  it("R-SB-4: the wrong-key error names the store and where the key came from, and nothing secret", () => {
    const key = randomBytes(32);
    const check = box(key).makeKeyCheck();
    let caught: unknown;
    try {
      box(randomBytes(32), "DETOUR_SECRET_KEY").verifyKeyCheck(check);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SecretKeyMismatchError);
    const error = caught as SecretKeyMismatchError;
    expect(error.code).toBe("DETOUR_SECRET_KEY_MISMATCH");
    expect(error.message).toContain("the test store");
    expect(error.message).toContain("DETOUR_SECRET_KEY");
    expect(error.message).not.toContain(key.toString("base64"));
    expect(() => box(key).verifyKeyCheck(check)).not.toThrow();
  });

  it("R-SB-4: credentials are sealed per profile id", () => {
    const secrets = box();
    const credential = { type: "oauth" as const, provider: "anthropic", access: "a-token", refresh: "r-token", expires: 5 };
    const sealed = sealCredential(secrets, "anthropic:ada@example.com", credential);
    expect(sealed).not.toMatch(/a-token|r-token/);
    expect(openCredential(secrets, "anthropic:ada@example.com", sealed)).toEqual(credential);
    expect(() => openCredential(secrets, "anthropic:default", sealed)).toThrow(SecretKeyMismatchError);
  });

  it("R-SB-4: DETOUR_SECRET_KEY (base64, 32 bytes) is used when set", () => {
    const key = randomBytes(32);
    const resolved = resolveSecretKey({ detourHome: home(), env: { DETOUR_SECRET_KEY: key.toString("base64") } });
    expect(resolved.key.equals(key)).toBe(true);
    expect(resolved.source).toBe("DETOUR_SECRET_KEY");
  });

  it("R-SB-4: an explicit key wins over the environment", () => {
    const key = randomBytes(32);
    const resolved = resolveSecretKey({
      detourHome: home(),
      env: { DETOUR_SECRET_KEY: randomBytes(32).toString("base64") },
      secretKey: key,
    });
    expect(resolved.key.equals(key)).toBe(true);
  });

  it("R-SB-4: a malformed DETOUR_SECRET_KEY is rejected with a typed error that says what is expected", () => {
    for (const value of ["not base64 !", randomBytes(16).toString("base64")]) {
      let caught: unknown;
      try {
        resolveSecretKey({ detourHome: home(), env: { DETOUR_SECRET_KEY: value } });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(SecretKeyInvalidError);
      expect((caught as SecretKeyInvalidError).code).toBe("DETOUR_SECRET_KEY_INVALID");
      expect((caught as Error).message).toMatch(/base64-encoded 32-byte key/);
    }
  });

  it("R-SB-4: without DETOUR_SECRET_KEY a key file is created 0600 in DETOUR_HOME and reused", () => {
    const detourHome = join(home(), "nested-home");
    const first = resolveSecretKey({ detourHome, env: {} });
    const path = join(detourHome, SECRET_KEY_FILE_NAME);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(detourHome).mode & 0o777).toBe(0o700);
    expect(Buffer.from(readFileSync(path, "utf8").trim(), "base64").equals(first.key)).toBe(true);
    expect(first.source).toContain(path);
    const second = resolveSecretKey({ detourHome, env: {} });
    expect(second.key.equals(first.key)).toBe(true);
  });

  it("R-SB-4: a hand-made key file with loose permissions is tightened to 0600; a broken one is rejected", () => {
    const detourHome = home();
    const path = join(detourHome, SECRET_KEY_FILE_NAME);
    const key = randomBytes(32);
    writeFileSync(path, key.toString("base64"));
    chmodSync(path, 0o644);
    expect(resolveSecretKey({ detourHome, env: {} }).key.equals(key)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    writeFileSync(path, "short");
    expect(() => resolveSecretKey({ detourHome, env: {} })).toThrow(SecretKeyInvalidError);
  });
});
