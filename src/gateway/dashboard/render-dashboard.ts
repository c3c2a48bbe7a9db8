/**
 * The live dashboard at `/` for people (SPEC R-GW-1): one server-rendered HTML document with a small inline
 * script (dashboard-script.ts) that keeps it current. The first paint is complete without the script (the
 * profile table and the chains are rendered here); the script then redraws every few seconds. Everything
 * shown is escaped; credentials never reach this module (profile ids and usage stats only, R-OB-2).
 * The layout reads on a laptop and on a phone: the page uses the window's width (centred, no fixed column),
 * and below 760 px every table turns into stacked cards, each cell labelled, so nothing scrolls sideways.
 */
import type { UsageStats } from "../../core/types.js";
import { DASHBOARD_SCRIPT } from "./dashboard-script.js";
import { DASHBOARD_STYLE } from "./dashboard-style.js";
import { renderRequestLog } from "./render-request-log.js";
import { REQUEST_LOG_SCRIPT } from "./request-log-script.js";
import { REQUEST_LOG_STYLE } from "./request-log-style.js";

export interface DashboardProfile {
  id: string;
  provider: string;
  type: string;
  usageStats: UsageStats;
  /** The headroom line (R-PO-7), e.g. "40% of unified-5h left, resets …"; absent without readings. */
  headroom?: string;
  /** US dollars this profile's priced answers cost in the last 24 hours. */
  spendUsd24h?: number;
  /** R-PO-8: e.g. "2/2 in flight · 3 waiting"; absent for a profile without seats in use. */
  seats?: string;
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
  /** The page's icon as SVG text (also served at `/favicon.ico`). */
  favicon?: string;
}

/** Shown in an empty Headroom cell: why it is empty. */
export const NO_HEADROOM_TEXT = "no reading yet";
export const NO_HEADROOM_TITLE =
  "The provider has not sent rate-limit headers for this key yet. Headroom shows the share of its limit left once a response carries them; some providers never send them.";

const PROFILE_COLUMNS = [
  "Profile",
  "Provider",
  "Type",
  "State",
  "Why",
  "Recovers",
  "Headroom",
  "Seats",
  "Failures",
  "Last used",
  "Spent 24 h",
  "",
] as const;
const SESSION_COLUMNS = ["Session", "Model", "Source", "Fallback for", "Profile pin", "Updated"] as const;
const MODEL_COLUMNS = ["Model", "Requests", "Latency p50 · p95", "First token p50 · p95", "Tokens in · out", "Cost"] as const;
const FIRST_TOKEN_COLUMNS = ["Model", "Samples", "First token p50 · p95 · p99", "Deadline", "Hedge after"] as const;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** JSON inside a `<script type="application/json">`: `<` escaped so no value can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

function stateOf(stats: UsageStats, now: number): { name: string; until?: number; why?: string } {
  if (stats.disabledUntil !== undefined && stats.disabledUntil > now)
    return { name: "disabled", until: stats.disabledUntil, why: stats.disabledReason };
  if (stats.blockedUntil !== undefined && stats.blockedUntil > now)
    return { name: "blocked", until: stats.blockedUntil, why: stats.blockedReason };
  if (stats.cooldownUntil !== undefined && stats.cooldownUntil > now)
    return { name: "cooldown", until: stats.cooldownUntil, why: stats.cooldownReason };
  return { name: "usable" };
}

function cell(label: string, content: string, className?: string, title?: string): string {
  const classes = className ? ` class="${className}"` : "";
  const titled = title ? ` title="${escapeHtml(title)}"` : "";
  return `<td data-label="${escapeHtml(label)}"${classes}${titled}>${content}</td>`;
}

function dollars(amount: number): string {
  if (amount === 0) return "$0";
  return amount < 0.01 ? `$${amount.toFixed(4)}` : `$${amount.toFixed(2)}`;
}

function profileRow(profile: DashboardProfile, now: number): string {
  const state = stateOf(profile.usageStats, now);
  const recovers =
    state.until !== undefined
      ? `in ${Math.ceil((state.until - now) / 1000)} s · ${new Date(state.until).toISOString().slice(11, 19)} UTC`
      : "";
  const headroom = profile.headroom
    ? cell("Headroom", escapeHtml(profile.headroom), "headroom")
    : cell("Headroom", `<span class="muted">${NO_HEADROOM_TEXT}</span>`, "headroom empty", NO_HEADROOM_TITLE);
  return (
    `<tr data-profile="${escapeHtml(profile.id)}" data-state="${state.name}">` +
    cell("Profile", escapeHtml(profile.id), "id") +
    cell("Provider", escapeHtml(profile.provider)) +
    cell("Type", escapeHtml(profile.type)) +
    cell("State", `<span class="badge ${state.name}">${state.name}</span>`) +
    cell("Why", escapeHtml(state.why ?? "")) +
    cell("Recovers", escapeHtml(recovers), "recovers") +
    headroom +
    cell("Seats", escapeHtml(profile.seats ?? ""), "seats") +
    cell("Failures", "") +
    cell("Last used", "") +
    cell("Spent 24 h", profile.spendUsd24h !== undefined ? dollars(profile.spendUsd24h) : "", "number") +
    cell("", "") +
    `</tr>`
  );
}

function head(columns: readonly string[]): string {
  return `<thead><tr>${columns.map((column) => `<th>${escapeHtml(column)}</th>`).join("")}</tr></thead>`;
}

const CARDS: readonly [id: string, label: string][] = [
  ["card-requests", "Requests"],
  ["card-fallbacks", "Moved to a fallback"],
  ["card-failed", "Unanswered"],
  ["card-latency", "Latency p50 · p95"],
  ["card-first-token", "First token p50 · p95"],
  ["card-tokens", "Tokens in · out"],
  ["card-cost", "Cost"],
];

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
  const initial = scriptJson({
    agentId: input.agentId,
    refreshMs: input.refreshMs,
    noHeadroom: { text: NO_HEADROOM_TEXT, title: NO_HEADROOM_TITLE },
  });
  const cards = CARDS.map(
    ([id, label]) =>
      `<div class="card"><div class="card-label">${label}</div><div class="card-value" id="${id}">–</div><div class="card-note" id="${id}-note"></div></div>`,
  ).join("");
  const icon = input.favicon ? `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(input.favicon)}">` : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Detour</title>${icon}<style>${DASHBOARD_STYLE}${REQUEST_LOG_STYLE}</style></head>
<body>
<header><h1>Detour</h1>
<label>Agent <select id="agent">${agentOptions}</select></label>
<label>Admin token <input id="token" type="password" autocomplete="off" placeholder="for reset buttons"></label>
<span id="updated" class="meta">${escapeHtml(new Date(input.now).toISOString().slice(11, 19))} UTC</span></header>
<main>
<div class="grid">
<section class="activity"><h2>Last 15 minutes</h2><p id="activity-summary" class="meta"></p>
<h3 class="meta">Requests by the model that answered</h3><div id="chart-requests" class="chart-box"></div><div id="legend-requests" class="legends"></div>
<h3 class="meta">Failed attempts by reason, and moves to a fallback</h3><div id="chart-failures" class="chart-box"></div><div id="legend-failures" class="legends"></div></section>
<section class="overview"><h2>Model chains</h2>${chains}
<div class="cards" aria-label="Last 15 minutes in numbers">${cards}</div></section>
</div>
<section class="models"><h2>Models, last 15 minutes</h2>
<table class="stack" id="models-table">${head(MODEL_COLUMNS)}<tbody id="models-body"></tbody></table>
<p id="models-empty" class="meta">No answers in the last 15 minutes.</p>
<p class="meta">Latency: the whole request. First token: streams only, from the upstream call to its first content. Cost: from the model's prices (config <code>cost</code> or the built-in catalogue); models without prices are not counted.</p></section>
<section class="first-token"><h2>First token, learned</h2>
<table class="stack" id="first-token-table">${head(FIRST_TOKEN_COLUMNS)}<tbody id="first-token-body"></tbody></table>
<p class="meta">The recent first-token times of each model in this process: the deadline a silent attempt is cut at, and how long an attempt may go without first content before the next one races it.</p></section>
${renderRequestLog()}
<section><h2>Auth profiles <span id="profile-counts" class="meta"></span></h2>
<table class="stack" id="profiles-table">${head(PROFILE_COLUMNS)}
<tbody id="profiles-body">${rows}</tbody></table>
<p id="profiles-empty" class="meta"${input.profiles.length > 0 ? " hidden" : ""}>No auth profiles are stored or configured.</p>
<p class="meta">Headroom: the share of the provider's rate limit a key has left, read from the provider's response headers; "${NO_HEADROOM_TEXT}" until a response carried them.</p>
<p id="admin-message" class="meta"></p></section>
<section><h2>Sessions <span id="sessions-range" class="meta"></span></h2>
<table class="stack" id="sessions-table">${head(SESSION_COLUMNS)}
<tbody id="sessions-body"></tbody></table>
<p><button id="sessions-prev" type="button">← Previous</button> <button id="sessions-next" type="button">Next →</button></p></section>
<p class="meta">JSON: <a href="/status">/status</a> · <a href="/dashboard/activity">/dashboard/activity</a> · metrics: <a href="/metrics">/metrics</a></p>
</main>
<script type="application/json" id="detour-initial">${initial}</script>
<script nonce="${escapeHtml(input.nonce)}">${DASHBOARD_SCRIPT}${REQUEST_LOG_SCRIPT}</script>
</body></html>
`;
}

/** The page's Content-Security-Policy: its own inline script (by nonce) and fetches to this origin only. */
export function dashboardContentSecurityPolicy(nonce: string): string {
  return `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'`;
}
