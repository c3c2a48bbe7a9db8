/**
 * docs/errors.md must list every stable error code the code can throw and every failover reason, so the
 * reference cannot drift from the code (DESIGN §4).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { FAILOVER_REASONS } from "../../src/core/reasons.js";

const root = resolve(import.meta.dirname, "../..");
const doc = readFileSync(join(root, "docs/errors.md"), "utf8");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "__fixtures__" ? [] : sourceFiles(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Environment variables share the prefix but are not error codes (R-CF-4). */
const ENVIRONMENT_KNOBS = new Set([
  "DETOUR_HOME",
  "DETOUR_CONFIG",
  "DETOUR_SECRET_KEY",
  "DETOUR_LOG_LEVEL",
  "DETOUR_FALLBACK_SKIP_TTL_MS",
  "DETOUR_SDK_RETRY_MAX_WAIT_SECONDS",
]);

const codes = new Set<string>();
for (const file of sourceFiles(join(root, "src"))) {
  for (const match of readFileSync(file, "utf8").matchAll(/["'`](DETOUR_[A-Z0-9_]+)["'`]/g)) {
    if (match[1] && !ENVIRONMENT_KNOBS.has(match[1])) codes.add(match[1]);
  }
}

describe("docs/errors.md", () => {
  it("finds the error codes in the source", () => {
    expect(codes.size).toBeGreaterThan(3);
  });

  for (const code of [...codes].sort()) {
    it(`documents error code ${code}`, () => {
      expect(doc).toContain(`\`${code}\``);
    });
  }

  for (const reason of FAILOVER_REASONS) {
    it(`R-EC-1: documents failover reason ${reason}`, () => {
      expect(doc).toContain(`\`${reason}\``);
    });
  }
});
