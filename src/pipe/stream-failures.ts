/**
 * The failures a watched upstream stream ends with (SPEC R-ST-1, R-ST-2, R-ST-6), the same whichever way the
 * stream is read (the commit point, the assembling read, the AI SDK's part stream): our own watchdogs are
 * timeouts, a stream that ends before its answer is a cut.
 */
import { UpstreamFailure } from "../ports/provider.js";

export function watchdogFailure(provider: string, model: string, message: string): UpstreamFailure {
  // ETIMEDOUT classifies as `timeout` (R-EC-4): a watchdog is our own timer, not a caller abort (R-EC-7).
  return new UpstreamFailure(`${provider}/${model}: ${message}`, { provider, code: "ETIMEDOUT", message });
}

export function cutFailure(provider: string, model: string, message: string): UpstreamFailure {
  return new UpstreamFailure(`${provider}/${model}: ${message}`, { provider, code: "ECONNRESET", message });
}

export function secondsText(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/**
 * R-ST-1/R-ST-6: no first content within the first-token budget. Before the first content only that budget
 * applies (SPEC §11 "Timeouts": `ttftTimeoutSeconds` before the first content, `streamStallSeconds` between
 * chunks after it), so a reasoning model that sends its role frame and then thinks for 45 s is not cut by
 * the 30 s stall budget while its 60 s first-token budget runs.
 */
export function beforeFirstTokenTimeout(provider: string, model: string, budgets: { ttftTimeoutMs: number }): UpstreamFailure {
  return watchdogFailure(provider, model, `no first token within ${secondsText(budgets.ttftTimeoutMs)} (ttftTimeoutSeconds)`);
}

/** R-ST-2: a committed stream sent nothing for `streamStallSeconds`. */
export function stallTimeout(provider: string, model: string, stallTimeoutMs: number): UpstreamFailure {
  return watchdogFailure(provider, model, `stream stalled for ${secondsText(stallTimeoutMs)} (streamStallSeconds)`);
}
