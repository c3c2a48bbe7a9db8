import { describe, expect, it } from "vitest";
import { SeamTrimmer, seamOverlap } from "./stream-seam.js";

const DELIVERED = "The quick brown fox jumps over the";

describe("R-ST-4 seamOverlap: what of a continuation was already delivered", () => {
  const rows: [string, string, boolean, number | undefined][] = [
    // [continuation so far, ended, expected]
    [" lazy dog.", false, 0],
    [" over the lazy dog.", false, " over the".length],
    ["over the lazy dog.", false, "over the".length],
    [`${DELIVERED} lazy dog.`, false, DELIVERED.length],
    ["The quick", false, undefined],
    ["The quick", true, "The quick".length],
    [" over", false, undefined],
    [" over the", false, " over the".length],
    ["the lazy dog", false, "the".length],
    // "he" is inside a word of the delivered text: new text, not a repeat.
    ["he said", false, 0],
    ["", false, undefined],
    ["", true, 0],
  ].map(([continuation, ended, expected]) => [DELIVERED, continuation as string, ended as boolean, expected as number | undefined]);

  it.each(rows)("delivered %j, continuation %j (ended %s) → %s", (delivered, continuation, ended, expected) => {
    expect(seamOverlap(delivered, continuation, ended)).toBe(expected);
  });

  it("drops doubled whitespace at a prefill seam (a prefill cannot end in whitespace)", () => {
    expect(seamOverlap("Hello there ", " world")).toBe(1);
    expect(seamOverlap("Hello there ", "world")).toBe(0);
  });

  it("nothing delivered: nothing to trim", () => {
    expect(seamOverlap("", "anything")).toBe(0);
  });
});

describe("R-ST-4 SeamTrimmer: only the remainder passes, whatever the pieces", () => {
  const answer = "The quick brown fox jumps over the lazy dog. It was a sunny day.";
  const cutAt = answer.indexOf(" lazy");
  const delivered = answer.slice(0, cutAt);
  const remainder = answer.slice(cutAt);
  const tokens = (text: string) => text.match(/\s*\S+/g) ?? [];

  const continuations: [string, string][] = [
    ["exact", remainder],
    ["repeats the last words", ` over the${remainder}`],
    ["restarts from the beginning", answer],
  ];

  it.each(continuations)("%s", (_name, continuation) => {
    for (const pieces of [tokens(continuation), [...continuation], [continuation]]) {
      const trimmer = new SeamTrimmer(delivered);
      let out = "";
      for (const piece of pieces) out += trimmer.push(piece);
      out += trimmer.end();
      expect(delivered + out).toBe(answer);
    }
  });

  it("a continuation that ends inside the delivered text adds nothing", () => {
    const trimmer = new SeamTrimmer(delivered);
    expect(trimmer.push("The quick brown")).toBe("");
    expect(trimmer.end()).toBe("");
  });
});
