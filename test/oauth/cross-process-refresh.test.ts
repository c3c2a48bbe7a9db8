/**
 * R-AP-5 across processes: three processes share one SQLite store; the OAuth profile is 1 minute from expiry.
 * Exactly one of them sends the refresh-token grant (it holds the store lease); the others wait for the
 * stored result and use the same new token.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { openStateStore } from "../../src/state/open-store.js";
import { grant, startTokenServer } from "./token-server.js";

const CHILD = fileURLToPath(new URL("./children/refresh-child.ts", import.meta.url));
const PROFILE = "anthropic:shared@example.com";
const PROCESSES = 3;

const detourHome = mkdtempSync(join(tmpdir(), "detour-oauth-"));
afterAll(() => rmSync(detourHome, { recursive: true, force: true }));

interface Child {
  lines: string[];
  waitFor(prefix: string): Promise<string>;
  send(line: string): void;
  exited: Promise<number | null>;
  stderr(): string;
}

function startChild(spec: object): Child {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, JSON.stringify(spec)], { stdio: ["pipe", "pipe", "pipe"] });
  const lines: string[] = [];
  let buffered = "";
  let errors = "";
  const listeners = new Set<() => void>();
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    const parts = (buffered + chunk).split("\n");
    buffered = parts.pop() ?? "";
    lines.push(...parts);
    for (const listener of listeners) listener();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => void (errors += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    lines,
    exited,
    stderr: () => errors,
    send: (line) => void child.stdin.write(`${line}\n`),
    waitFor: (prefix) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const line = lines.find((entry) => entry.startsWith(prefix));
          if (line === undefined) return;
          listeners.delete(check);
          resolve(line);
        };
        listeners.add(check);
        check();
        void exited.then((code) => reject(new Error(`child exited (${code}) before "${prefix}":\n${errors}`)));
      }),
  };
}

describe("OAuth refresh across processes", () => {
  it("R-AP-5: 3 processes sharing one SQLite store send exactly 1 token request and all use its result", async () => {
    const secretKey = randomBytes(32).toString("base64");
    const store = await openStateStore({ backend: "sqlite", detourHome, secretKey, env: {} });
    await store.upsertProfile({
      id: PROFILE,
      credential: {
        type: "oauth",
        provider: "anthropic",
        access: "at-old",
        refresh: "rt-old",
        expires: Date.now() + 60_000,
        email: "shared@example.com",
      },
    });
    // The grant takes a while, so every process arrives while the first one's refresh is in flight.
    const server = await startTokenServer(() => grant("at-new", { refresh: "rt-new", expiresIn: 3600, delayMs: 400 }));
    try {
      const children = Array.from({ length: PROCESSES }, () => startChild({ detourHome, secretKey, tokenUrl: server.url }));
      await Promise.all(children.map((child) => child.waitFor("ready")));
      for (const child of children) child.send("go");
      const codes = await Promise.all(children.map((child) => child.exited));
      for (const [index, code] of codes.entries()) expect(code, children[index]?.stderr()).toBe(0);

      const results = children.map((child) => child.lines.find((line) => line.startsWith("result ")));
      expect(results).toEqual(Array.from({ length: PROCESSES }, () => "result at-new"));
      expect(server.requests).toEqual([{ grantType: "refresh_token", refreshToken: "rt-old", clientId: "detour-test" }]);
      expect((await store.getProfile(PROFILE))?.credential).toMatchObject({ access: "at-new", refresh: "rt-new" });
      // R-OB-2: no process printed a token anywhere but the attempt's own result line.
      for (const child of children) expect(child.stderr()).not.toMatch(/at-old|rt-old|at-new|rt-new/);
    } finally {
      await server.close();
      await store.close();
    }
  });
});
