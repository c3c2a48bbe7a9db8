/**
 * The Redis timeouts every Detour client uses, so that the state store and the seats answer (or give up)
 * on the same schedule: a Redis that hangs costs each of them the same bounded time.
 */
/** How long connecting may take before the client counts Redis as down. */
export const REDIS_CONNECT_TIMEOUT_MS = 2000;
/** A command without an answer within this time counts as an outage. */
export const REDIS_COMMAND_TIMEOUT_MS = 2000;
