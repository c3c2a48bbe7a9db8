/**
 * docs/errors.md must list every stable error code the code can throw and every failover reason, so the
 * reference cannot drift from the code (DESIGN §4).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/core/errors.js";
import { FAILOVER_REASONS } from "../../src/core/reasons.js";
import type { InjectOptions } from "fastify";
import { gatewayPerTest, openAIBody } from "../../src/gateway/__fixtures__/test-gateway.js";
import { ENVIRONMENT_KNOBS } from "./environment-knobs.js";

const root = resolve(import.meta.dirname, "../..");
const doc = readFileSync(join(root, "docs/errors.md"), "utf8");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "__fixtures__" ? [] : sourceFiles(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [path] : [];
  });
}

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

/** The rows of the code table: code → the "raised by" cell. */
function documentedRaisers(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const match of doc.matchAll(/^\| `(DETOUR_[A-Z0-9_]+)` \| ([^|]+) \|/gm)) rows.set(match[1]!, match[2]!);
  return rows;
}

describe("docs/errors.md against the error catalogue", () => {
  it("has one row per code of ERROR_CODES, and no row for a code the catalogue does not hold", () => {
    const rows = [...documentedRaisers().keys()].sort();
    expect(rows).toEqual([...new Set(Object.values(ERROR_CODES))].sort());
  });
});

describe("docs/errors.md against what the gateway emits", () => {
  const start = gatewayPerTest();

  it("R-GW-4: every error the gateway answers carries a documented code with the documented status and JSON", async () => {
    const { app } = await start({ gateway: { maxBodyMb: 0.01 } });
    const json = { "content-type": "application/json" };
    const cases: { name: string; request: InjectOptions }[] = [
      { name: "bad JSON", request: { method: "POST", url: "/v1/chat/completions", headers: json, payload: "{" } },
      { name: "schema", request: { method: "POST", url: "/v1/chat/completions", payload: { model: "detour", messages: 1 } } },
      {
        name: "routing",
        request: { method: "POST", url: "/v1/chat/completions", headers: { "x-detour-agent": "ghost" }, payload: openAIBody("hi") },
      },
      { name: "status agent", request: { method: "GET", url: "/status?agent=ghost" } },
      { name: "page", request: { method: "GET", url: "/status?sessionsLimit=0" } },
      { name: "model", request: { method: "POST", url: "/v1/chat/completions", payload: openAIBody("hi", { model: "nope/x" }) } },
      { name: "too large", request: { method: "POST", url: "/v1/chat/completions", payload: openAIBody("x".repeat(20_000)) } },
      {
        name: "text/plain",
        request: { method: "POST", url: "/v1/chat/completions", headers: { "content-type": "text/plain" }, payload: "hi" },
      },
      { name: "route", request: { method: "GET", url: "/v1/nothing" } },
      {
        name: "ghost pin",
        request: { method: "PATCH", url: "/admin/sessions/s1", payload: { model: "openai/gpt-a", profile: "openai:ghost" } },
      },
      { name: "ghost profile", request: { method: "POST", url: "/admin/profiles/openai:ghost/reset" } },
      { name: "rebinding host", request: { method: "GET", url: "/status", headers: { host: "evil.example:4141" } } },
      {
        name: "foreign origin",
        request: { method: "POST", url: "/v1/chat/completions", headers: { origin: "http://evil.example" }, payload: openAIBody("hi") },
      },
    ];
    const raisers = documentedRaisers();
    for (const { name, request } of cases) {
      const response = await app.inject(request);
      expect(response.statusCode, name).toBeGreaterThanOrEqual(400);
      expect(response.headers["content-type"], name).toBe("application/json; charset=utf-8");
      const code = response.json().error.code as string;
      const raisedBy = raisers.get(code);
      expect(raisedBy, `${name}: ${code} is in the table`).toBeDefined();
      expect(raisedBy, `${name}: ${code} documents status ${response.statusCode}`).toContain(String(response.statusCode));
    }
  });
});
