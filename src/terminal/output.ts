/**
 * Terminal output shared by the command-line front ends (cli/, demo/): output streams, colour only on a TTY,
 * `--json` output and aligned tables. Imports nothing of Detour's own, so both may use it without importing
 * each other (DESIGN §1).
 */
import Table from "cli-table3";
import pc from "picocolors";

export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  /** A terminal's width; tables wrap long cells to fit it. */
  columns?: number;
}

const MIN_TABLE_WIDTH = 20;

/**
 * The width tables are fitted to: the terminal's, else `COLUMNS` when set. Output to a pipe or a file without
 * `COLUMNS` keeps one line per row, so scripts can still grep it.
 */
function tableWidth(stream: OutputStream, env: NodeJS.ProcessEnv): number {
  if (stream.isTTY && typeof stream.columns === "number" && stream.columns >= MIN_TABLE_WIDTH) return stream.columns;
  const columns = Number(env.COLUMNS);
  return Number.isInteger(columns) && columns >= MIN_TABLE_WIDTH ? columns : Number.POSITIVE_INFINITY;
}

export interface CliOutput {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly colors: ReturnType<typeof pc.createColors>;
  /** Prints data as pretty JSON on stdout. */
  json(value: unknown): void;
  line(text?: string): void;
  error(text: string): void;
  table(head: readonly string[], rows: readonly (readonly unknown[])[]): void;
}

/** Colour only when the stream is a TTY and NO_COLOR is not set. */
export function createOutput(
  stdout: OutputStream = process.stdout,
  stderr: OutputStream = process.stderr,
  env: NodeJS.ProcessEnv = process.env,
): CliOutput {
  const useColor = Boolean(stdout.isTTY) && !env.NO_COLOR && env.TERM !== "dumb";
  const colors = pc.createColors(useColor);
  return {
    stdout,
    stderr,
    colors,
    json(value) {
      stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    },
    line(text = "") {
      stdout.write(`${text}\n`);
    },
    error(text) {
      stderr.write(`${text}\n`);
    },
    table(head, rows) {
      stdout.write(`${renderTable(head, rows, useColor, tableWidth(stdout, env))}\n`);
    },
  };
}

const ANSI = /\u001b\[[0-9;]*m/g;
const HAS_ANSI = /\u001b\[/;
/** A column is never narrowed below this many characters. */
const MIN_COLUMN_WIDTH = 8;

function visibleWidth(text: string): number {
  return Math.max(
    0,
    ...text
      .replace(ANSI, "")
      .split("\n")
      .map((line) => line.length),
  );
}

/** Wraps `text` to `width` columns at spaces; a word longer than a line is split. Coloured text is left whole. */
export function wrapCell(text: string, width: number): string {
  if (visibleWidth(text) <= width || HAS_ANSI.test(text)) return text;
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(" ")) {
      let rest = word;
      while (rest.length > 0) {
        const room = line === "" ? width : width - line.length - 1;
        if (rest.length <= room) {
          line = line === "" ? rest : `${line} ${rest}`;
          rest = "";
        } else if (line !== "" && rest.length <= width) {
          lines.push(line);
          line = "";
        } else {
          const take = line === "" ? width : room;
          if (take <= 0) {
            lines.push(line);
            line = "";
            continue;
          }
          lines.push(line === "" ? rest.slice(0, take) : `${line} ${rest.slice(0, take)}`);
          line = "";
          rest = rest.slice(take);
        }
      }
    }
    lines.push(line);
  }
  return lines.join("\n");
}

/**
 * Column widths that fit `maxWidth`: columns that fit their share keep their natural width, and what is left
 * is shared out among the wider ones (never below MIN_COLUMN_WIDTH).
 */
function fittedWidths(natural: readonly number[], available: number): number[] {
  const widths = [...natural];
  const order = natural.map((width, index) => ({ width, index })).sort((a, b) => a.width - b.width);
  let remaining = available;
  order.forEach(({ width, index }, position) => {
    const share = Math.floor(remaining / (order.length - position));
    widths[index] = Math.max(MIN_COLUMN_WIDTH, Math.min(width, share));
    remaining -= widths[index]!;
  });
  return widths;
}

/** An aligned table; long cells wrap so the table fits `maxWidth` columns (no limit by default). */
export function renderTable(
  head: readonly string[],
  rows: readonly (readonly unknown[])[],
  color: boolean,
  maxWidth: number = Number.POSITIVE_INFINITY,
): string {
  const cells = rows.map((row) => row.map((cell) => (cell === undefined || cell === null ? "-" : String(cell))));
  const columns = Math.max(head.length, ...cells.map((row) => row.length));
  const natural = Array.from({ length: columns }, (_, index) =>
    Math.max(visibleWidth(head[index] ?? ""), ...cells.map((row) => visibleWidth(row[index] ?? ""))),
  );
  // Each column has one space of padding on each side; between columns two spaces (plain) or a border.
  const overhead = columns * 2 + (color ? columns + 1 : 2 * (columns - 1));
  const fits = natural.reduce((sum, width) => sum + width, 0) + overhead <= maxWidth;
  const widths = fits ? natural : fittedWidths(natural, Math.max(columns * MIN_COLUMN_WIDTH, maxWidth - overhead));
  const table = new Table({
    head: head.map((cell, index) => (fits ? cell : wrapCell(cell, widths[index]!))),
    ...(fits ? {} : { colWidths: widths.map((width) => width + 2) }),
    style: { head: color ? ["cyan"] : [], border: color ? ["grey"] : [], compact: true },
    chars: color
      ? undefined
      : {
          top: "",
          "top-mid": "",
          "top-left": "",
          "top-right": "",
          bottom: "",
          "bottom-mid": "",
          "bottom-left": "",
          "bottom-right": "",
          left: "",
          "left-mid": "",
          mid: "",
          "mid-mid": "",
          right: "",
          "right-mid": "",
          middle: "  ",
        },
  });
  for (const row of cells) table.push(fits ? row : row.map((cell, index) => wrapCell(cell, widths[index]!)));
  return table.toString();
}

/** Human-friendly remaining time: `in 4m 10s`, `in 2h 5m`, or `expired`. */
export function formatRemaining(untilMs: number | undefined, nowMs: number): string {
  if (untilMs === undefined) return "-";
  const remaining = untilMs - nowMs;
  if (remaining <= 0) return "expired";
  const seconds = Math.ceil(remaining / 1000);
  if (seconds < 60) return `in ${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `in ${minutes}m ${seconds % 60}s`;
  const hours = Math.floor(minutes / 60);
  return `in ${hours}h ${minutes % 60}m`;
}
