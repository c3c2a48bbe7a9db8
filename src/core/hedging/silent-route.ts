/**
 * R-HG-4: a route that loses a hedge without sending a single byte, twice in a row, is silent. The runner
 * records it once as a model-scoped timeout, so later requests skip it instead of waiting `hedgeAfter` on
 * it every time. Any byte from the route, or a win, clears its count.
 */
const ROUTES_KEPT = 1024;
const SILENT_LOSSES = 2;

export class SilentRoutes {
  readonly #losses = new Map<string, number>();

  /**
   * A hedge on `profileId`+`model` was lost. Returns true when this loss makes the route silent (the second
   * byte-less loss in a row): record one timeout failure for it.
   */
  noteLost(profileId: string, model: string, sentAnyByte: boolean): boolean {
    const key = `${profileId}\u0000${model}`;
    if (sentAnyByte) {
      this.#losses.delete(key);
      return false;
    }
    const losses = (this.#losses.get(key) ?? 0) + 1;
    if (losses >= SILENT_LOSSES) {
      this.#losses.delete(key);
      return true;
    }
    if (!this.#losses.has(key) && this.#losses.size >= ROUTES_KEPT) this.#losses.delete(this.#losses.keys().next().value as string);
    this.#losses.set(key, losses);
    return false;
  }

  /** The route answered (a byte, a commit, a win): it is not silent. */
  noteHeard(profileId: string, model: string): void {
    this.#losses.delete(`${profileId}\u0000${model}`);
  }
}
