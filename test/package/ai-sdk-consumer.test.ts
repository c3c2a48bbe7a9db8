/**
 * SPEC R-LB-1: `detour-llm/ai-sdk` as an ESM consumer sees it — the built package (dist/, `npm run build`)
 * resolved through its `exports` map under `moduleResolution: nodenext`, type-checked with the real `ai` and
 * provider packages, and imported at run time without loading the AI SDK itself.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../..");

describe("R-LB-1 the detour-llm/ai-sdk export for an ESM consumer", () => {
  let app: string;

  beforeAll(() => {
    app = mkdtempSync(join(tmpdir(), "detour-ai-sdk-consumer-"));
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          // As AI SDK apps build: @ai-sdk/provider's own declarations need @types/json-schema, which it does
          // not depend on. The consumer's use of Detour's types is still checked in full.
          skipLibCheck: true,
          types: ["node"],
        },
        files: ["consumer.ts"],
      }),
    );
    cpSync(join(root, "test/fixtures/ai-sdk-consumer/consumer.ts"), join(app, "consumer.ts"));
    const modules = join(app, "node_modules");
    mkdirSync(modules);
    // The package as installed (its own name, its exports map), and the app's own AI SDK dependencies.
    symlinkSync(root, join(modules, "detour-llm"), "dir");
    for (const name of ["ai", "@ai-sdk", "@types", "zod", "@opentelemetry"])
      symlinkSync(join(root, "node_modules", name), join(modules, name), "dir");
  });

  afterAll(() => {
    if (app) rmSync(app, { recursive: true, force: true });
  });

  it("R-LB-1 is built into dist/ with its types", () => {
    expect(existsSync(join(root, "dist/ai-sdk/index.js"))).toBe(true);
    expect(existsSync(join(root, "dist/ai-sdk/index.d.ts"))).toBe(true);
  });

  it("R-LB-1 type-checks for an ESM consumer under moduleResolution nodenext", async () => {
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    const result = await run(process.execPath, [tsc, "-p", join(app, "tsconfig.json")], { cwd: app }).then(
      () => ({ ok: true, output: "" }),
      (error: { stdout?: string; stderr?: string }) => ({ ok: false, output: `${error.stdout ?? ""}${error.stderr ?? ""}` }),
    );
    expect(result.output).toBe("");
    expect(result.ok).toBe(true);
  }, 180_000);

  it("R-LB-1 imports at run time through the exports map and builds a v3 model", async () => {
    const script = [
      'import { createDetourModel } from "detour-llm/ai-sdk";',
      'const fake = { specificationVersion: "v3", provider: "openai.chat", modelId: "gpt-5", supportedUrls: {}, doGenerate() {}, doStream() {} };',
      "const model = createDetourModel({ candidates: [fake] });",
      "console.log(JSON.stringify({ spec: model.specificationVersion, provider: model.provider, modelId: model.modelId }));",
    ].join("\n");
    writeFileSync(join(app, "runtime.mjs"), script);
    const { stdout } = await run(process.execPath, [join(app, "runtime.mjs")], { cwd: app });
    expect(JSON.parse(stdout)).toEqual({ spec: "v3", provider: "detour", modelId: "openai/gpt-5" });
  });
});
