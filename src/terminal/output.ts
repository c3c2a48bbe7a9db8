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
      stdout.write(`${renderTable(head, rows, useColor)}\n`);
    },
  };
}

export function renderTable(head: readonly string[], rows: readonly (readonly unknown[])[], color: boolean): string {
  const table = new Table({
    head: [...head],
    style: { head: color ? ["cyan"] : [], border: color ? ["grey"] : [], compact: true },
    chars: color
      ? undefined
      : {
          top: "", "top-mid": "", "top-left": "", "top-right": "",
          bottom: "", "bottom-mid": "", "bottom-left": "", "bottom-right": "",
          left: "", "left-mid": "", mid: "", "mid-mid": "", right: "", "right-mid": "", middle: "  ",
        },
  });
  for (const row of rows) table.push(row.map((cell) => (cell === undefined || cell === null ? "-" : String(cell))));
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
