/**
 * The live dashboard at `/` for people (SPEC R-GW-1): one server-rendered HTML document with a small inline
 * script (dashboard-script.ts) that keeps it current. The first paint is complete without the script (the
 * profile table and the chains are rendered here); the script then redraws every few seconds. Everything
 * shown is escaped; credentials never reach this module (profile ids and usage stats only, R-OB-2).
 */
import type { UsageStats } from "../../core/types.js";
import { DASHBOARD_SCRIPT } from "./dashboard-script.js";

export interface DashboardProfile {
  id: string;
  provider: string;
  type: string;
  usageStats: UsageStats;
  /** The headroom line (R-PO-7), e.g. "40% of unified-5h left, resets …"; absent without readings. */
  headroom?: string;
}

export interface DashboardChain {
  agentId: string;
  models: readonly string[];
}

export interface DashboardInput {
  agentId: string;
  agentIds: readonly string[];
  now: number;
  chains: readonly DashboardChain[];
  profiles: readonly DashboardProfile[];
  /** How often the page refreshes itself. */
  refreshMs: number;
  /** Per-response nonce of the inline script (Content-Security-Policy). */
  nonce: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** JSON inside a `<script type="application/json">`: `<` escaped so no value can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

function stateOf(stats: UsageStats, now: number): { name: string; until?: number; why?: string } {
  if (stats.disabledUntil !== undefined && stats.disabledUntil > now) return { name: "disabled", until: stats.disabledUntil, why: stats.disabledReason };
  if (stats.blockedUntil !== undefined && stats.blockedUntil > now) return { name: "blocked", until: stats.blockedUntil, why: stats.blockedReason };
  if (stats.cooldownUntil !== undefined && stats.cooldownUntil > now) return { name: "cooldown", until: stats.cooldownUntil, why: stats.cooldownReason };
  return { name: "usable" };
}

function profileRow(profile: DashboardProfile, now: number): string {
  const state = stateOf(profile.usageStats, now);
  const recovers = state.until !== undefined ? `in ${Math.ceil((state.until - now) / 1000)} s · ${new Date(state.until).toISOString().slice(11, 19)} UTC` : "";
  const cells = [profile.id, profile.provider, profile.type].map((cell) => `<td>${escapeHtml(cell)}</td>`).join("");
  return (
    `<tr data-profile="${escapeHtml(profile.id)}" data-state="${state.name}">${cells}` +
    `<td><span class="badge ${state.name}">${state.name}</span></td><td>${escapeHtml(state.why ?? "")}</td>` +
    `<td class="recovers">${escapeHtml(recovers)}</td><td class="headroom">${escapeHtml(profile.headroom ?? "")}</td><td></td><td></td><td></td></tr>`
  );
}

const STYLE = `
:root{color-scheme:light}
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#f6f7f9}
header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;padding:.9rem 1.5rem;background:#111827;color:#f9fafb}
header h1{font-size:1.25rem;margin:0}header label{font-size:.85rem;color:#d1d5db}
header input,header select{margin-left:.35rem;padding:.2rem .4rem;border-radius:4px;border:1px solid #4b5563;background:#1f2937;color:#f9fafb}
main{padding:0 1.5rem 2rem;max-width:1200px}
h2{font-size:1.05rem;margin:1.6rem 0 .5rem}
section{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:.75rem 1rem;margin-top:1rem}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.35rem .55rem;border-bottom:1px solid #eef0f3;vertical-align:top}
th{font-weight:600;color:#4b5563;font-size:.85rem}
.meta{color:#6b7280;font-size:.85rem}.stale{color:#b91c1c;font-weight:600}
.badge{display:inline-block;padding:.05rem .5rem;border-radius:999px;font-size:.8rem;font-weight:600}
.badge.usable{background:#dcfce7;color:#166534}.badge.cooldown{background:#fef3c7;color:#92400e}
.badge.disabled{background:#fee2e2;color:#991b1b}.badge.blocked{background:#ede9fe;color:#5b21b6}
tr[data-state=cooldown] td.recovers{color:#92400e;font-weight:600}tr[data-state=disabled] td.recovers{color:#991b1b;font-weight:600}
td.headroom.spent{color:#92400e;font-weight:600}
button{padding:.15rem .6rem;border:1px solid #d1d5db;border-radius:4px;background:#f9fafb;cursor:pointer}
button:disabled{opacity:.5;cursor:default}
.chain{margin:.2rem 0}.chain code{background:#f3f4f6;padding:.05rem .35rem;border-radius:4px}
.chart{width:100%;height:auto;display:block}.axis{font-size:10px;fill:#6b7280}
.legend{display:inline-flex;align-items:center;gap:.3rem;margin-right:1rem;font-size:.85rem}
.legend i{display:inline-block;width:.8rem;height:.8rem;border-radius:2px}
#admin-message{margin:.4rem 0 0;color:#1d4ed8}
`;

export function renderDashboard(input: DashboardInput): string {
  const agentOptions = input.agentIds
    .map((id) => `<option value="${escapeHtml(id)}"${id === input.agentId ? " selected" : ""}>${escapeHtml(id)}</option>`)
    .join("");
  const chains = input.chains
    .map(
      (chain) =>
        `<p class="chain"><strong>${escapeHtml(chain.agentId)}</strong>: ` +
        (chain.models.length > 0 ? chain.models.map((model) => `<code>${escapeHtml(model)}</code>`).join(" → ") : "(no model configured)") +
        `</p>`,
    )
    .join("\n");
  const rows = input.profiles.map((profile) => profileRow(profile, input.now)).join("\n");
  const initial = scriptJson({ agentId: input.agentId, refreshMs: input.refreshMs });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Detour</title><style>${STYLE}</style></head>
<body>
<header><h1>Detour</h1>
<label>Agent <select id="agent">${agentOptions}</select></label>
<label>Admin token <input id="token" type="password" autocomplete="off" placeholder="for reset buttons"></label>
<span id="updated" class="meta">${escapeHtml(new Date(input.now).toISOString().slice(11, 19))} UTC</span></header>
<main>
<section><h2>Model chains</h2>${chains}</section>
<section><h2>Auth profiles <span id="profile-counts" class="meta"></span></h2>
<table><thead><tr><th>Profile</th><th>Provider</th><th>Type</th><th>State</th><th>Why</th><th>Recovers</th><th>Headroom</th><th>Failures</th><th>Last used</th><th></th></tr></thead>
<tbody id="profiles-body">${rows}</tbody></table>
<p id="profiles-empty" class="meta"${input.profiles.length > 0 ? " hidden" : ""}>No auth profiles are stored or configured.</p>
<p id="admin-message" class="meta"></p></section>
<section><h2>Last 15 minutes</h2><p id="activity-summary" class="meta"></p>
<h3 class="meta">Requests by the model that answered</h3><div id="chart-requests"></div><div id="legend-requests"></div>
<h3 class="meta">Failed attempts by reason, and answers from a fallback</h3><div id="chart-failures"></div><div id="legend-failures"></div></section>
<section><h2>Sessions <span id="sessions-range" class="meta"></span></h2>
<table><thead><tr><th>Session</th><th>Model</th><th>Source</th><th>Fallback for</th><th>Profile pin</th><th>Updated</th></tr></thead>
<tbody id="sessions-body"></tbody></table>
<p><button id="sessions-prev" type="button">← Previous</button> <button id="sessions-next" type="button">Next →</button></p></section>
<p class="meta">JSON: <a href="/status">/status</a> · <a href="/dashboard/activity">/dashboard/activity</a> · metrics: <a href="/metrics">/metrics</a></p>
</main>
<script type="application/json" id="detour-initial">${initial}</script>
<script nonce="${escapeHtml(input.nonce)}">${DASHBOARD_SCRIPT}</script>
</body></html>
`;
}

/** The page's Content-Security-Policy: its own inline script (by nonce) and fetches to this origin only. */
export function dashboardContentSecurityPolicy(nonce: string): string {
  return `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'`;
}
