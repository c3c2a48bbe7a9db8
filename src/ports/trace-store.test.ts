import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashSessionKey } from "./trace-store.js";

const expected = (key: string) => createHash("sha256").update(`detour-session\0${key}`).digest("hex").slice(0, 32);

describe("hashSessionKey", () => {
  it("R-OB-4 gives every session key its own stable one-way hash, also after many other keys were hashed", () => {
    const first = hashSessionKey("session-0");
    expect(first).toBe(expected("session-0"));
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    for (let index = 1; index < 3000; index += 1) expect(hashSessionKey(`session-${index}`)).toBe(expected(`session-${index}`));
    // Long forgotten by the memo, the first key still hashes the same.
    expect(hashSessionKey("session-0")).toBe(first);
    expect(hashSessionKey("session-2999")).toBe(expected("session-2999"));
    expect(hashSessionKey("session-1")).not.toBe(first);
  });
});
