/**
 * The bench's own children (the upstream and both floors) as plain JavaScript, so they run on plain node
 * as the built gateway does. Run through tsx they would carry its loader: module hooks on a thread of their
 * own and every file's source map, about 25 MB of resident memory that a floor proxy does not have, which
 * made the floors' memory figures (and so Detour ÷ floor) flatter Detour. TypeScript's `transpileModule`
 * strips the types file by file; nothing is bundled, so the children import undici from node_modules as before.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import ts from "typescript";

const BENCH_DIR = new URL("./", import.meta.url);
/** Where the plain copies go (ignored by git); beside bench/ so `undici` resolves from the repository. */
const OUT_DIR = new URL("./.compiled/", import.meta.url);
/** What every child imports. */
const SHARED = ["serve-child.ts"];

/** A script's plain copy (`x.ts` → `.compiled/x.js`). */
function plainCopy(name: string): URL {
  return new URL(name.replace(/\.ts$/, ".js"), OUT_DIR);
}

/** Transpiles `scripts` (names in bench/) and what they share; returns each one's plain path, in order. */
export function plainChildren(scripts: readonly string[]): string[] {
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(new URL("package.json", OUT_DIR), '{ "type": "module" }\n');
  for (const name of [...SHARED, ...scripts]) {
    const source = readFileSync(new URL(name, BENCH_DIR), "utf8");
    const { outputText } = ts.transpileModule(source, {
      fileName: name,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(plainCopy(name), outputText);
  }
  return scripts.map((name) => plainCopy(name).pathname);
}
