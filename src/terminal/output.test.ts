import { describe, expect, it } from "vitest";
import { createOutput, renderTable, wrapCell } from "./output.js";

const LONG = "localhost, *.localhost, 127.0.0.1, [::1] on port 4141 (list a proxy's or another public name in gateway.allowedHosts)";

function widest(text: string): number {
  return Math.max(...text.split("\n").map((line) => line.length));
}

describe("tables on a terminal", () => {
  it.each([
    ["short text", 20, "short text"],
    ["one two three four", 9, "one two\nthree\nfour"],
    ["https://example.com/a/long/path", 10, "https://ex\nample.com/\na/long/pat\nh"],
    ["a\nbb", 5, "a\nbb"],
  ])("wraps %j to %d columns at spaces, splitting only words longer than a line", (text, width, wrapped) => {
    expect(wrapCell(text, width)).toBe(wrapped);
  });

  it("a table wider than the terminal wraps its long cells and keeps every word", () => {
    const table = renderTable(["check", "result", "detail"], [["gateway hosts", "ok", LONG]], false, 80);
    expect(widest(table)).toBeLessThanOrEqual(80);
    for (const word of LONG.split(" ")) expect(table).toContain(word);
    // Columns that fit keep their width: the short ones are not squeezed.
    expect(table).toMatch(/ gateway hosts +ok +localhost,/);
  });

  it("a table that fits is left as it is", () => {
    expect(renderTable(["a", "b"], [["x", "y"]], false, 80)).toBe(renderTable(["a", "b"], [["x", "y"]], false));
  });

  it("output fits tables to the terminal's width, or to COLUMNS; a pipe without COLUMNS keeps one line per row", () => {
    const written: string[] = [];
    const pipe = { write: (chunk: string) => written.push(chunk), isTTY: false, columns: 300 };
    createOutput(pipe, pipe, {}).table(["check", "detail"], [["hosts", LONG]]);
    expect(written.join("").trimEnd().split("\n")).toHaveLength(2);
    written.length = 0;
    createOutput(pipe, pipe, { COLUMNS: "80" }).table(["check", "detail"], [["hosts", LONG]]);
    expect(widest(written.join(""))).toBeLessThanOrEqual(80);
    written.length = 0;
    const terminal = { write: (chunk: string) => written.push(chunk), isTTY: true, columns: 60 };
    createOutput(terminal, terminal, { NO_COLOR: "1" }).table(["check", "detail"], [["hosts", LONG]]);
    expect(widest(written.join(""))).toBeLessThanOrEqual(60);
  });
});
