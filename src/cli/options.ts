/** Options shared by several commands, parsed once so every command validates them the same way. */
import { Option } from "commander";
import { CliUsageError } from "./output.js";

export const DEFAULT_AGENT_ID = "main";

export function agentOption(): Option {
  return new Option("--agent <id>", "agent id (each agent has its own state store)").default(DEFAULT_AGENT_ID);
}

export function jsonOption(): Option {
  return new Option("--json", "print the result as JSON on stdout");
}

/** A positive number of seconds (fractions allowed), for `--timeout-seconds`. */
export function parsePositiveSeconds(flag: string): (value: string) => number {
  return (value) => {
    const seconds = Number(value);
    if (!/^\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(seconds) || seconds <= 0) {
      throw new CliUsageError(`${flag} expects a positive number of seconds, got "${value}".`);
    }
    return seconds;
  };
}

/** A TCP port 0–65535 (0 picks a free one). */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || port > 65_535) {
    throw new CliUsageError(`--port expects a whole number from 0 to 65535, got "${value}".`);
  }
  return port;
}
