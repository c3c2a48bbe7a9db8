/** How a profile's routing state reads in a table: `ok`, `cooldown rate_limit in 25s`, `disabled billing in 4h 59m`. */
import type { ProfileStatus } from "../../engine/index.js";
import { formatRemaining } from "../output.js";

export function profileStateText(profile: ProfileStatus, now: number): string {
  const stats = profile.stats;
  if (profile.usable) {
    // Usable for most models, but a model-scoped window may still bench it for one model (R-CD-5).
    const scoped = [
      stats.cooldownModel && stats.cooldownUntil !== undefined && stats.cooldownUntil > now
        ? `cooldown ${stats.cooldownReason ?? ""} for ${stats.cooldownModel} ${formatRemaining(stats.cooldownUntil, now)}`
        : undefined,
      stats.blockedModel && stats.blockedUntil !== undefined && stats.blockedUntil > now
        ? `blocked ${stats.blockedReason ?? ""} for ${stats.blockedModel} ${formatRemaining(stats.blockedUntil, now)}`
        : undefined,
    ].filter((part): part is string => part !== undefined);
    return scoped.length > 0 ? `ok (${scoped.join("; ").replace(/\s+/g, " ")})` : "ok";
  }
  const until = formatRemaining(profile.unusableUntil, now);
  const reason = profile.unusableReason ?? "";
  const kind =
    stats.disabledUntil !== undefined && stats.disabledUntil === profile.unusableUntil
      ? "disabled"
      : stats.blockedUntil !== undefined && stats.blockedUntil === profile.unusableUntil
        ? "blocked"
        : "cooldown";
  return `${kind} ${reason} ${until}`.replace(/\s+/g, " ").trim();
}

export function formatTimestamp(epochMs: number | undefined, now: number): string {
  if (epochMs === undefined) return "-";
  const seconds = Math.round((now - epochMs) / 1000);
  if (seconds < 0) return new Date(epochMs).toISOString();
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
  return new Date(epochMs).toISOString().slice(0, 10);
}

/** R-GW-7: a profile's 24-hour spend in dollars, four significant digits for cheap models; `-` when nothing. */
export function spendText(spendUsd: number): string {
  if (!(spendUsd > 0)) return "-";
  const decimals = Math.min(10, Math.max(2, 3 - Math.floor(Math.log10(spendUsd))));
  // Trailing zeros past the cents say nothing: $0.000421, $0.50, $12.30.
  return `$${spendUsd.toFixed(decimals).replace(/(\.\d\d\d*?)0+$/, "$1")}`;
}
