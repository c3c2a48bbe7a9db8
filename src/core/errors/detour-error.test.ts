import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, DetourError, FailoverError, ModelSelectionError } from "./index.js";
import { DetourArgumentError } from "../../engine/engine-errors.js";

type Catalogue = typeof import("./index.js");

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

/**
 * A second copy of the package, as when an app and a plugin each bundle their own Detour: core/ imports only
 * core/, so copying the folder elsewhere gives modules with their own class identities.
 */
async function anotherCopy(): Promise<Catalogue> {
  const dir = mkdtempSync(join(tmpdir(), "detour-errors-copy-"));
  copies.push(dir);
  cpSync(join(import.meta.dirname, ".."), join(dir, "core"), { recursive: true });
  return (await import(pathToFileURL(join(dir, "core/errors/index.ts")).href)) as Catalogue;
}

describe("DetourError.isInstance", () => {
  it("recognises errors thrown by another copy of the package, where instanceof cannot", async () => {
    const other = await anotherCopy();
    expect(other.DetourError).not.toBe(DetourError);
    expect(other.FailoverError).not.toBe(FailoverError);

    const foreign = new other.FailoverError("Rate limited by openai", { reason: "rate_limit" });
    expect(foreign instanceof FailoverError).toBe(false);
    expect(foreign instanceof DetourError).toBe(false);
    expect(FailoverError.isInstance(foreign)).toBe(true);
    expect(DetourError.isInstance(foreign)).toBe(true);
    expect(ConfigError.isInstance(foreign)).toBe(false);

    const ours = new ConfigError([{ path: "gateway.port", message: "expected a number" }]);
    expect(other.ConfigError.isInstance(ours)).toBe(true);
    expect(other.DetourError.isInstance(ours)).toBe(true);
    expect(other.FailoverError.isInstance(ours)).toBe(false);
  });

  it("answers for the class it is called on and its subclasses, not for siblings", () => {
    const selection = new ModelSelectionError({ input: "gpt", origin: "request model" });
    const argument = new DetourArgumentError("bad argument");
    expect(ModelSelectionError.isInstance(selection)).toBe(true);
    expect(DetourError.isInstance(selection)).toBe(true);
    expect(DetourError.isInstance(argument)).toBe(true);
    expect(DetourArgumentError.isInstance(argument)).toBe(true);
    expect(DetourArgumentError.isInstance(selection)).toBe(false);
    expect(ModelSelectionError.isInstance(argument)).toBe(false);
  });

  it("refuses what is not a Detour error, even an object that copies the code", () => {
    const lookalike = Object.assign(new Error("boom"), { name: "FailoverError", code: "DETOUR_FAILOVER" });
    for (const value of [lookalike, new Error("boom"), { code: "DETOUR_FAILOVER" }, "DETOUR_FAILOVER", null, undefined, 42]) {
      expect(DetourError.isInstance(value)).toBe(false);
      expect(FailoverError.isInstance(value)).toBe(false);
    }
  });

  it("keeps the marker out of the error's enumerable fields, so logs and JSON stay as they were", () => {
    const error = new FailoverError("boom", { reason: "timeout", provider: "openai" });
    expect(Object.getOwnPropertySymbols(error).every((key) => !Object.getOwnPropertyDescriptor(error, key)?.enumerable)).toBe(true);
    expect(JSON.parse(JSON.stringify(error))).not.toHaveProperty("detour.error");
  });
});
