/**
 * The CLI's logger: one line per entry on stderr, so stdout stays clean for answers and `--json`.
 * Entries below the level (DETOUR_LOG_LEVEL, default info) are dropped. Loggers never receive secrets
 * (ports/events.ts), so fields are printed as they come.
 */
import { pino } from "pino";
import type { Logger, LogLevel } from "../ports/events.js";
import type { OutputStream } from "./output.js";

/**
 * Defence in depth for R-OB-2: loggers are never handed secrets, but should a field carrying one slip into
 * an event, pino censors it before it is written.
 */
export const REDACTED_LOG_PATHS = [
  "key",
  "*.key",
  "token",
  "*.token",
  "access",
  "*.access",
  "refresh",
  "*.refresh",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "headers.x-api-key",
  "*.headers.authorization",
  "credential",
  "*.credential",
  "apiKey",
  "*.apiKey",
  "secretKey",
  "*.secretKey",
];

/** Lines gathered before one write to stderr, and the longest a line waits (JSON logs on the real stderr). */
export const LOG_BATCH_BYTES = 4096;
export const LOG_FLUSH_MS = 200;

/** JSON lines through pino (one object per line: time, level, msg, fields). */
function createJsonLogger(stderr: OutputStream, minLevel: LogLevel): Logger {
  // On the real stderr, write through pino's asynchronous destination: a server logs an access line per
  // request, and a write per line (a syscall on the thread pool each) cost more than building it. Lines are
  // gathered up to 4 KB and written at least every LOG_FLUSH_MS, so a busy gateway writes a few times a
  // second and a quiet one shows each line within that time; pino flushes what is left on exit.
  const destination =
    stderr === process.stderr
      ? pino.destination({ dest: 2, sync: false, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS })
      : { write: (line: string) => stderr.write(line) };
  const options = {
    level: minLevel,
    base: undefined,
    messageKey: "msg",
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  const redacting = pino({ ...options, redact: { paths: REDACTED_LOG_PATHS, censor: "[redacted]" } }, destination);
  // Redaction costs as much as the rest of a line; a line whose fields cannot hold a redacted path (the
  // access line of every request) skips it without changing what would have been written.
  const plain = pino(options, destination);
  return {
    log(level, message, fields) {
      const logger = fields !== undefined && mayNeedRedaction(fields) ? redacting : plain;
      logger[level](fields ?? {}, message);
    },
    isLevelEnabled: (level) => plain.isLevelEnabled(level),
  };
}

/** The top-level field names REDACTED_LOG_PATHS censors; deeper paths need an object value to match. */
const REDACTED_TOP_LEVEL: ReadonlySet<string> = new Set(REDACTED_LOG_PATHS.filter((path) => !path.includes(".")));

function mayNeedRedaction(fields: Record<string, unknown>): boolean {
  for (const name in fields) {
    if (REDACTED_TOP_LEVEL.has(name)) return true;
    const value = fields[name];
    if (typeof value === "object" && value !== null) return true;
  }
  return false;
}

const RANK: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * The gateway's log for a person at a terminal: `12:04:05 INFO  message key=value …`, one line per entry,
 * every field kept (an access line's status, model and duration are what a person looks for) and the same
 * names censored as in JSON.
 */
function createPrettyLogger(stderr: OutputStream, minLevel: LogLevel, now: () => Date): Logger {
  return {
    isLevelEnabled: (level) => RANK[level] >= RANK[minLevel],
    log(level, message, fields) {
      if (RANK[level] < RANK[minLevel]) return;
      const time = now().toISOString().slice(11, 19);
      stderr.write(`${time} ${level.toUpperCase().padEnd(5)} ${readableMessage(message, fields)}${prettyFields(fields)}\n`);
    },
  };
}

function prettyValue(value: unknown): string {
  if (typeof value === "string") return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value, (name, inner: unknown) => (REDACTED_TOP_LEVEL.has(name) ? "[redacted]" : inner)) ?? String(value);
}

function prettyFields(fields: Record<string, unknown> | undefined): string {
  if (!fields) return "";
  let text = "";
  for (const name in fields) {
    const value = fields[name];
    if (value === undefined) continue;
    text += ` ${name}=${REDACTED_TOP_LEVEL.has(name) ? "[redacted]" : prettyValue(value)}`;
  }
  return text;
}

export function createStderrLogger(
  stderr: OutputStream,
  minLevel: LogLevel,
  format: "text" | "json" | "pretty" = "text",
  now: () => Date = () => new Date(),
): Logger {
  if (format === "json") return createJsonLogger(stderr, minLevel);
  if (format === "pretty") return createPrettyLogger(stderr, minLevel, now);
  return {
    isLevelEnabled: (level) => RANK[level] >= RANK[minLevel],
    log(level, message, fields) {
      if (RANK[level] < RANK[minLevel]) return;
      // Structured fields (full decision events) are for debugging; a person reads the message.
      const extra = minLevel === "debug" && fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : "";
      stderr.write(`detour ${level}: ${readableMessage(message, fields)}${extra}\n`);
    },
  };
}

/**
 * A decision event's message is only its type; in text mode a person needs what was decided about which
 * model, e.g. `model_fallback_decision candidate_failed openai/gpt-5 (1/2) rate_limit 429 → next anthropic/…`.
 */
function readableMessage(message: string, fields: Record<string, unknown> | undefined): string {
  if (message !== "model_fallback_decision" || !fields) return message;
  const parts = [message, fields.decision, fields.candidateModel];
  if (typeof fields.attemptIndex === "number") parts.push(`(${fields.attemptIndex}/${String(fields.attemptTotal)})`);
  if (fields.profileId) parts.push(`[${String(fields.profileId)}]`);
  if (fields.reason) parts.push(String(fields.reason));
  if (fields.status) parts.push(String(fields.status));
  if (fields.nextCandidate) parts.push(`→ next ${String(fields.nextCandidate)}`);
  return parts
    .filter((part) => part !== undefined && part !== null && part !== "")
    .map(String)
    .join(" ");
}

/**
 * Drops the log lines of events a command already prints in its own words (`detour run` prints the notice
 * and the failure itself), so a person does not read them twice on stderr.
 */
export function withoutEvents(logger: Logger, events: readonly string[]): Logger {
  const dropped = new Set(events);
  return {
    log(level, message, fields) {
      if (typeof fields?.event === "string" && dropped.has(fields.event)) return;
      logger.log(level, message, fields);
    },
  };
}
