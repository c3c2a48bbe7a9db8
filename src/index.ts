/** Public API of the `detour` package. Names exported here are a contract. */
export * from "./core/errors.js";
export { FAILOVER_REASONS, REASON_POLICY, isFailoverReason } from "./core/reasons.js";
export type { FailoverReason, ReasonPolicy, ReasonLane } from "./core/reasons.js";
export type * from "./core/types.js";
