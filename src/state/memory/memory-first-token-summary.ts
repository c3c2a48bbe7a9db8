/** The learned first-token summary in memory (R-TT-1): for tests and stores handed in by the caller. */
import {
  byModel,
  FIRST_TOKEN_SUMMARY_TTL_MS,
  type FirstTokenSummaryRow,
  type FirstTokenSummaryStore,
} from "../../ports/first-token-summary.js";

export class MemoryFirstTokenSummary implements FirstTokenSummaryStore {
  readonly #rows = new Map<string, { row: FirstTokenSummaryRow; writtenAt: number }>();

  async write(rows: readonly FirstTokenSummaryRow[], now: number): Promise<void> {
    for (const row of rows) this.#rows.set(`${row.provider}/${row.model}`, { row: { ...row }, writtenAt: now });
    for (const [key, entry] of this.#rows) if (entry.writtenAt <= now - FIRST_TOKEN_SUMMARY_TTL_MS) this.#rows.delete(key);
  }

  async read(now: number): Promise<FirstTokenSummaryRow[]> {
    return [...this.#rows.values()]
      .filter((entry) => entry.writtenAt > now - FIRST_TOKEN_SUMMARY_TTL_MS)
      .map((entry) => ({ ...entry.row }))
      .sort(byModel);
  }

  async close(): Promise<void> {}
}
