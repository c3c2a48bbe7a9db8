/**
 * The one setting a Redis backend cannot do without. Every opener on the state backend (the state store,
 * seats, traces, the first-token summary) asks here, so a missing URL reads the same wherever it is found.
 */
import { StateConfigError } from "./state-errors.js";

export function requireRedisUrl(redis: { url?: string } | undefined): string {
  const url = redis?.url;
  if (!url) {
    throw new StateConfigError(
      `state.backend is "redis" but state.redis.url is not set. Set it (for example "redis://127.0.0.1:6379") ` +
        `or use the sqlite backend.`,
    );
  }
  return url;
}
