/**
 * The status page at `/` for people (SPEC R-GW-1): one server-rendered HTML document, no scripts and no
 * external assets, so it works on an air-gapped host and cannot leak anything to a CDN. Everything shown is
 * escaped; credentials never reach this module (it receives profile ids and usage stats only, R-OB-2).
 */
import type { UsageStats } from "../../core/types.js";
import { profileStateOf } from "../metrics.js";

export interface StatusPageProfile {
  id: string;
  provider: string;
  type: string;
  usableNow: boolean;
  usageStats: UsageStats;
  /** R-PO-7: remaining share, window and reset as one line (empty without a reading). */
  headroom?: string;
}

export interface StatusPageSession {
  sessionKey: string;
  modelOverride?: string;
  providerOverride?: string;
  modelOverrideSource?: string;
  modelOverrideFallbackOriginProvider?: string;
  modelOverrideFallbackOriginModel?: string;
  authProfileOverride?: string;
  updatedAt?: number;
}

export interface StatusPageInput {
  agentId: string;
  now: number;
  primary?: string;
  fallbacks: readonly string[];
  profiles: readonly StatusPageProfile[];
  sessions: readonly StatusPageSession[];
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function isoTime(ms: number | undefined): string {
  return ms === undefined ? "" : new Date(ms).toISOString().replace(".000Z", "Z");
}

function remaining(until: number | undefined, now: number): string {
  if (until === undefined || until <= now) return "";
  const seconds = Math.ceil((until - now) / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.ceil(minutes / 60)} h`;
}

function profileDetail(stats: UsageStats, now: number): string {
  const parts: string[] = [];
  if (stats.disabledUntil !== undefined && stats.disabledUntil > now) {
    parts.push(`disabled (${stats.disabledReason ?? "unknown"}) for ${remaining(stats.disabledUntil, now)}`);
  }
  if (stats.cooldownUntil !== undefined && stats.cooldownUntil > now) {
    const scope = stats.cooldownModel ? ` on ${stats.cooldownModel}` : "";
    parts.push(`cooldown (${stats.cooldownReason ?? "unknown"})${scope} for ${remaining(stats.cooldownUntil, now)}`);
  }
  if (stats.blockedUntil !== undefined && stats.blockedUntil > now) {
    const scope = stats.blockedModel ? ` on ${stats.blockedModel}` : "";
    parts.push(`blocked (${stats.blockedReason ?? "unknown"})${scope} for ${remaining(stats.blockedUntil, now)}`);
  }
  return parts.join("; ");
}

function failureSummary(stats: UsageStats): string {
  const counts = Object.entries(stats.failureCounts ?? {}).filter(([, count]) => (count ?? 0) > 0);
  return counts.map(([reason, count]) => `${reason}×${count}`).join(", ");
}

function table(headers: readonly string[], rows: readonly (readonly string[])[], empty: string): string {
  if (rows.length === 0) return `<p class="empty">${escapeHtml(empty)}</p>`;
  const head = headers.map((header) => `<th>${escapeHtml(header)}</th>`).join("");
  const body = rows
    .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join("")}</tr>`)
    .join("\n");
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1d1d1f;background:#fafafa}
h1{font-size:1.4rem;margin:0 0 .25rem}h2{font-size:1.1rem;margin:1.75rem 0 .5rem}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:.35rem .6rem;border-bottom:1px solid #e5e5e5;vertical-align:top}
th{background:#f0f0f0;font-weight:600}.meta{color:#666}.empty{color:#666;font-style:italic}
td:nth-child(4){font-weight:600}
`;

export function renderStatusPage(input: StatusPageInput): string {
  const profileRows = input.profiles.map((profile) => {
    const state = profileStateOf(profile.usageStats, input.now);
    return [
      profile.id,
      profile.provider,
      profile.type,
      profile.usableNow ? "usable" : state === "usable" ? "unusable" : state,
      profileDetail(profile.usageStats, input.now),
      failureSummary(profile.usageStats),
      profile.headroom ?? "",
      isoTime(profile.usageStats.lastUsed),
    ];
  });
  const sessionRows = input.sessions.map((session) => {
    const model =
      session.providerOverride && session.modelOverride
        ? `${session.providerOverride}/${session.modelOverride}`
        : (session.modelOverride ?? "");
    const origin =
      session.modelOverrideFallbackOriginProvider && session.modelOverrideFallbackOriginModel
        ? `${session.modelOverrideFallbackOriginProvider}/${session.modelOverrideFallbackOriginModel}`
        : "";
    return [
      session.sessionKey,
      model,
      session.modelOverrideSource ?? "",
      origin,
      session.authProfileOverride ?? "",
      isoTime(session.updatedAt),
    ];
  });
  const chain = [input.primary, ...input.fallbacks].filter((entry): entry is string => entry !== undefined);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Detour status</title><style>${STYLE}</style></head>
<body>
<h1>Detour</h1>
<p class="meta">Agent <strong>${escapeHtml(input.agentId)}</strong> · ${escapeHtml(isoTime(input.now))} ·
model chain: ${escapeHtml(chain.length > 0 ? chain.join(" → ") : "(none configured)")}</p>
<h2>Auth profiles</h2>
${table(["Profile", "Provider", "Type", "State", "Why", "Failures", "Headroom", "Last used"], profileRows, "No auth profiles are stored or configured.")}
<h2>Sessions</h2>
${table(["Session", "Model override", "Source", "Fallback origin", "Profile pin", "Updated"], sessionRows, "No sessions yet.")}
<p class="meta">JSON: <a href="/status">/status</a> · metrics: <a href="/metrics">/metrics</a></p>
</body></html>
`;
}
