/**
 * Comments and test titles speak of the code and the rules it keeps (`R-…` ids), never of a tracker's issue
 * numbers: those live outside the repository, and a reader of the code cannot follow them.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "screenshots") return [];
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|mjs|js|sh)$/.test(name) ? [path] : [];
  });
}

/** A tracker reference: the word, then a number ("issue" 9, "Issue #"13). */
export function issueReferences(source: string): string[] {
  return [...source.matchAll(/\bissues? #?\d+\b/gi)].map((match) => match[0]);
}

describe("no issue numbers in the code", () => {
  it("finds a tracker reference when there is one, and not in ordinary words", () => {
    // Built from parts, so this file does not name an issue itself.
    const word = "issue";
    expect(issueReferences(`// the body parser (${word} 9): no join\n`)).toEqual([`${word} 9`]);
    expect(issueReferences(` * Hot reload (I${word.slice(1)} #13 item 5)`)).toEqual([`I${word.slice(1)} #13`]);
    expect(issueReferences("const issues = validate(body); // every issue at once")).toEqual([]);
  });

  it("no source, test, bench or script file names an issue number", () => {
    const offenders = ["src", "test", "bench", "scripts"]
      .flatMap((dir) => files(join(root, dir)))
      .flatMap((path) => issueReferences(readFileSync(path, "utf8")).map((found) => `${relative(root, path)}: ${found}`));
    expect(offenders).toEqual([]);
  });
});
