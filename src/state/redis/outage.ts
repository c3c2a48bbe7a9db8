/**
 * What counts as a Redis outage (degrade to the local view) as opposed to a real error of the request
 * (surface it), and how Redis is named in logs.
 */
import {
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  ErrorReply,
  ReconnectStrategyError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  TimeoutError,
} from "@redis/client";
import { backgroundClock } from "../shared/background-clock.js";
import { StoreUnavailableError } from "../state-errors.js";

/** Redis did not answer within the command timeout (a hung server or network). */
export class RedisUnansweredError extends Error {
  constructor(timeoutMs: number) {
    super(`Redis did not answer within ${timeoutMs} ms`);
    this.name = "RedisUnansweredError";
  }
}

const OUTAGE_ERROR_CLASSES = [
  RedisUnansweredError,
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  ReconnectStrategyError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  TimeoutError,
];
const OUTAGE_ERROR_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENOTCONN"]);

/** Connection trouble (degrade) as opposed to a real error of the request (surface it). */
export function isRedisOutage(error: unknown): boolean {
  if (OUTAGE_ERROR_CLASSES.some((errorClass) => error instanceof errorClass)) return true;
  if (error instanceof ErrorReply) return /^(LOADING|MASTERDOWN|TRYAGAIN|CLUSTERDOWN)\b/.test(error.message);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" && OUTAGE_ERROR_CODES.has(code);
}

export { redactUrl } from "./redact-url.js";

export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Runs a Redis operation with a reply deadline: past it the promise rejects with `RedisUnansweredError`.
 * `isAbandoned` tells a compare-and-set loop not to write when the late reply finally arrives.
 */
export async function withDeadline<T>(timeoutMs: number, call: (isAbandoned: () => boolean) => Promise<T>): Promise<T> {
  let abandoned = false;
  let cancel: (() => void) | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    cancel = backgroundClock.setTimer(timeoutMs, () => {
      abandoned = true;
      reject(new RedisUnansweredError(timeoutMs));
    });
  });
  try {
    return await Promise.race([call(() => abandoned), deadline]);
  } finally {
    cancel?.();
  }
}

/** Redis is not answering: what happened to the caller's request (`outcome`) and what to do (`hint`). */
export function redisUnavailable(url: string, cause: unknown, outcome: string, hint: string): StoreUnavailableError {
  return new StoreUnavailableError({ backend: `Redis at ${url}`, problem: `is not answering: ${errorText(cause)}`, outcome, hint, cause });
}
