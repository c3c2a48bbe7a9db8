import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeDialectIssues, formatIssuePath, toDialectIssues } from "./validation-issues.js";

describe("validation issue paths (R-GW-4)", () => {
  const paths: [PropertyKey[], string][] = [
    [[], "(body)"],
    [["model"], "model"],
    [["messages", 2, "content"], "messages[2].content"],
    [["messages", 0, "content", 1, "image_url", "url"], "messages[0].content[1].image_url.url"],
  ];
  for (const [path, text] of paths) {
    it(`R-GW-4: ${JSON.stringify(path)} reads ${text}`, () => {
      expect(formatIssuePath(path)).toBe(text);
    });
  }

  it("R-GW-4: a union is reported inside the branch the input came closest to", () => {
    const schema = z.object({ content: z.union([z.string(), z.array(z.object({ text: z.string() }))]) });
    const result = schema.safeParse({ content: [{ text: "a" }, { text: 5 }] });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(toDialectIssues(result.error.issues)).toEqual([
      { path: "content[1].text", message: "Invalid input: expected string, received number" },
    ]);
  });

  it("R-GW-4: a union no branch matched lists the accepted types", () => {
    const result = z.object({ stop: z.union([z.string(), z.array(z.string())]) }).safeParse({ stop: 1 });
    if (result.success) throw new Error("must fail");
    const issues = toDialectIssues(result.error.issues);
    expect(issues).toEqual([{ path: "stop", message: "Invalid input: expected string or array" }]);
    expect(describeDialectIssues(issues)).toBe("stop: Invalid input: expected string or array");
  });
});
