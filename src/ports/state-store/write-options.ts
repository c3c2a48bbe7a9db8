/**
 * Write durability (R-SB-5), shared by every facet that writes something a user or an operator asked for.
 *
 * `required` (the default): the write lands in the backend or the call throws `StoreUnavailableError` —
 * for everything a user or an operator asked for. `best-effort`: during a backend outage the write may be
 * kept in process-local state and pushed later (R-SB-3) — only for bookkeeping on the request path.
 */
export type WriteDurability = "required" | "best-effort";

export interface WriteOptions {
  durability?: WriteDurability;
}
