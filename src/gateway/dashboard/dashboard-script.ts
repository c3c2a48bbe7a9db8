/**
 * The dashboard's browser script, served inline with a per-response nonce (no build step, no external
 * assets: it works on an air-gapped host and leaks nothing to a CDN). It polls `/status` and
 * `/dashboard/activity`, redraws the profile table, the numbers and chart of the last 15 minutes, the
 * per-model table and the sessions page, and calls the admin API's profile reset with the admin token the user
 * typed (kept in sessionStorage only). Every value from the server is inserted as text, never as HTML.
 * Charts are drawn at their box's real width (and again when it changes), so their labels keep their size.
 */
export const DASHBOARD_SCRIPT = String.raw`
(() => {
  "use strict";
  const initial = JSON.parse(document.getElementById("detour-initial").textContent);
  const state = { agentId: initial.agentId, skewMs: 0, sessionsOffset: 0, sessionsLimit: 20, timer: null, activity: null };
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value);
    }
    for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    return node;
  };
  const svg = (tag, attrs) => {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
    return node;
  };
  const serverNow = () => Date.now() + state.skewMs;
  const clock = (ms) => new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  const relative = (ms) => {
    const seconds = Math.max(0, Math.round(ms / 1000));
    if (seconds < 120) return seconds + " s";
    const minutes = Math.round(seconds / 60);
    return minutes < 120 ? minutes + " min" : Math.round(minutes / 60) + " h";
  };
  const duration = (ms) => (ms < 1000 ? ms + " ms" : (ms / 1000).toFixed(ms < 10000 ? 1 : 0) + " s");
  const spread = (value) => (value ? duration(value.p50Ms) + " · " + duration(value.p95Ms) : "–");
  const count = (n) => (n >= 1e6 ? (n / 1e6).toFixed(1) + "M" : n >= 1e4 ? Math.round(n / 1e3) + "k" : n >= 1e3 ? (n / 1e3).toFixed(1) + "k" : String(n));
  const dollars = (n) => (n === undefined ? "–" : n === 0 ? "$0" : n < 0.01 ? "$" + n.toFixed(4) : "$" + n.toFixed(2));
  const td = (label, content, attrs) => el("td", Object.assign({ "data-label": label }, attrs || {}), content);
  const token = () => sessionStorage.getItem("detour-admin-token") || "";
  const PALETTE = ["#2563eb", "#16a34a", "#9333ea", "#0891b2", "#ca8a04", "#db2777", "#4b5563", "#65a30d"];
  const colours = new Map();
  const colourOf = (name) => {
    if (!colours.has(name)) colours.set(name, PALETTE[colours.size % PALETTE.length]);
    return colours.get(name);
  };

  function profileState(profile, now) {
    const stats = profile.usageStats || {};
    if (stats.disabledUntil > now) return { name: "disabled", until: stats.disabledUntil, why: stats.disabledReason };
    if (stats.blockedUntil > now) return { name: "blocked", until: stats.blockedUntil, why: stats.blockedReason, model: stats.blockedModel };
    if (stats.cooldownUntil > now) return { name: "cooldown", until: stats.cooldownUntil, why: stats.cooldownReason, model: stats.cooldownModel };
    return { name: "usable" };
  }

  function headroomText(profile) {
    const reading = profile.headroom;
    if (!reading) return "";
    const share = typeof reading.remainingShare === "number" ? Math.round(reading.remainingShare * 100) + " % left" : "limit near";
    const window = " of " + reading.window + (reading.model ? " (" + reading.model + ")" : "");
    const reset = reading.resetAt ? " · resets " + clock(reading.resetAt) : "";
    return (reading.nearlySpent ? "nearly spent: " : "") + share + window + reset;
  }

  async function resetProfile(id, button) {
    button.disabled = true;
    const headers = token() ? { authorization: "Bearer " + token() } : {};
    const response = await fetch("/admin/profiles/" + encodeURIComponent(id) + "/reset?agent=" + encodeURIComponent(state.agentId), { method: "POST", headers });
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      $("admin-message").textContent = "Reset of " + id + " failed (" + response.status + "): " + ((body.error && body.error.message) || response.statusText);
    } else {
      $("admin-message").textContent = "Reset " + id + ": every window cleared.";
    }
    button.disabled = false;
    refresh();
  }

  function seatsText(seats) {
    if (!seats) return "";
    const used = seats.limit === null ? seats.inFlight + " in flight" : seats.inFlight + "/" + seats.limit + " in flight";
    return seats.queued > 0 ? used + " · " + seats.queued + " waiting" : used;
  }

  function renderProfiles(status) {
    const now = status.now;
    const rows = status.profiles.map((profile) => {
      const current = profileState(profile, now);
      const failures = Object.entries((profile.usageStats && profile.usageStats.failureCounts) || {})
        .filter(([, count]) => count > 0).map(([reason, count]) => reason + "×" + count).join(", ");
      const recovers = current.until ? "in " + relative(current.until - now) + " · " + clock(current.until) : "";
      const why = current.why ? current.why + (current.model ? " on " + current.model : "") : "";
      const button = el("button", { class: "reset", type: "button", "data-profile": profile.id }, "Reset");
      button.addEventListener("click", () => resetProfile(profile.id, button));
      const headroom = headroomText(profile);
      const headroomCell = headroom
        ? td("Headroom", headroom, { class: profile.headroom.nearlySpent ? "headroom spent" : "headroom" })
        : td("Headroom", el("span", { class: "muted" }, initial.noHeadroom.text), { class: "headroom empty", title: initial.noHeadroom.title });
      return el("tr", { "data-profile": profile.id, "data-state": current.name },
        td("Profile", profile.id, { class: "id" }), td("Provider", profile.provider || ""), td("Type", profile.type || ""),
        td("State", el("span", { class: "badge " + current.name }, current.name)),
        td("Why", why), td("Recovers", recovers, { class: "recovers" }),
        headroomCell,
        td("Seats", seatsText(profile.seats), { class: "seats" }),
        td("Failures", failures), td("Last used", profile.usageStats && profile.usageStats.lastUsed ? clock(profile.usageStats.lastUsed) : ""),
        td("Spent 24 h", typeof profile.spendUsd24h === "number" ? dollars(profile.spendUsd24h) : "", { class: "number" }),
        td("", button));
    });
    $("profiles-body").replaceChildren(...rows);
    $("profiles-empty").hidden = rows.length > 0;
    const counts = { usable: 0, cooldown: 0, disabled: 0, blocked: 0 };
    for (const profile of status.profiles) counts[profileState(profile, now).name] += 1;
    $("profile-counts").textContent = Object.entries(counts).filter(([, n]) => n > 0).map(([name, n]) => n + " " + name).join(" · ") || "no profiles";
  }

  function renderSessions(status) {
    const sessions = status.sessions || [];
    const total = typeof status.sessionsTotal === "number" ? status.sessionsTotal : sessions.length;
    // A server that pages answers one page; an older one answers everything and the page is cut here.
    const page = typeof status.sessionsTotal === "number" ? sessions : sessions.slice(state.sessionsOffset, state.sessionsOffset + state.sessionsLimit);
    $("sessions-body").replaceChildren(...page.map((session) => el("tr", {},
      td("Session", session.sessionKey), td("Model", session.selectedModel || session.modelOverride || ""),
      td("Source", session.modelOverrideSource || ""), td("Fallback for", session.fallbackOrigin || ""),
      td("Profile pin", session.authProfileOverride || ""), td("Updated", session.updatedAt ? clock(session.updatedAt) : ""))));
    const first = total === 0 ? 0 : state.sessionsOffset + 1;
    $("sessions-range").textContent = first + "–" + Math.min(total, state.sessionsOffset + page.length) + " of " + total;
    $("sessions-prev").disabled = state.sessionsOffset === 0;
    $("sessions-next").disabled = state.sessionsOffset + state.sessionsLimit >= total;
  }

  /** The smallest 1, 2 or 5 × 10^n at or above the value, so the y-axis ticks are round numbers. */
  function niceCeiling(value) {
    const power = Math.pow(10, Math.floor(Math.log10(value)));
    for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
    return 10 * power;
  }

  function stackedBars(target, buckets, seriesOf, height) {
    // Drawn in the box's own pixels: text keeps its size on a phone instead of shrinking with the chart.
    const width = Math.max(240, Math.floor(target.clientWidth || 600));
    const left = 34, right = 8, top = 8, bottom = 20;
    const plotWidth = width - left - right, plotHeight = height - top - bottom;
    const barWidth = plotWidth / buckets.length;
    const totals = buckets.map((bucket) => Object.values(seriesOf(bucket)).reduce((a, b) => a + b, 0));
    const max = niceCeiling(Math.max(1, ...totals));
    const ticks = max === 1 ? [0, 1] : [0, max / 2, max];
    const chart = svg("svg", { viewBox: "0 0 " + width + " " + height, width, height, class: "chart", role: "img" });
    const yOf = (value) => top + plotHeight - (value / max) * plotHeight;
    for (const tick of ticks) {
      chart.append(svg("line", { x1: left, y1: yOf(tick), x2: width - right, y2: yOf(tick), class: "grid-line" }));
      const label = svg("text", { x: left - 5, y: yOf(tick) + 4, class: "axis y-tick", "text-anchor": "end" });
      label.textContent = Number.isInteger(tick) ? String(tick) : tick.toFixed(1);
      chart.append(label);
    }
    chart.append(svg("line", { x1: left, y1: top + plotHeight, x2: width - right, y2: top + plotHeight, stroke: "#9ca3af" }));
    buckets.forEach((bucket, index) => {
      let y = top + plotHeight;
      for (const [name, n] of Object.entries(seriesOf(bucket))) {
        if (!n) continue;
        const barHeight = (n / max) * plotHeight;
        y -= barHeight;
        const rect = svg("rect", { x: left + index * barWidth, y, width: Math.max(1, barWidth - 1), height: barHeight, fill: colourOf(name), "data-series": name });
        const title = svg("title", {}); title.textContent = name + ": " + n + " at " + clock(bucket.start); rect.append(title);
        chart.append(rect);
      }
    });
    const marks = [[0, "-15 min", "start"], [1 / 3, "-10 min", "middle"], [2 / 3, "-5 min", "middle"], [1, "now", "end"]];
    for (const [share, text, anchor] of marks) {
      const tick = svg("text", { x: left + share * plotWidth, y: height - 5, class: "axis x-tick", "text-anchor": anchor });
      tick.textContent = text;
      chart.append(tick);
    }
    target.replaceChildren(chart);
  }

  function legend(target, names) {
    target.replaceChildren(...names.map((name) => el("span", { class: "legend" }, el("i", { style: "background:" + colourOf(name) }), name)));
  }

  function card(id, value, note) {
    $(id).textContent = value;
    $(id + "-note").textContent = note || "";
  }

  // One model served by several providers (the same Claude on Anthropic and Vertex, one deployment in two Azure
  // regions) gets a row of its own totals, its providers' rows under it; the server sends them in that order.
  function renderModels(models) {
    const families = new Map();
    for (const model of models) families.set(model.family, [...(families.get(model.family) || []), model]);
    const rows = [];
    for (const [family, members] of families) {
      const grouped = members.length > 1;
      if (grouped) {
        const sum = (field) => members.reduce((total, member) => total + (member[field] || 0), 0);
        const priced = members.some((member) => member.costUsd !== undefined);
        rows.push(el("tr", { class: "model-family", "data-family": family },
          td("Model", family + " · " + members.length + " providers"), td("Requests", String(sum("requests")), { class: "number" }),
          td("Latency p50 · p95", ""), td("First token p50 · p95", ""),
          td("Tokens in · out", count(sum("inputTokens")) + " · " + count(sum("outputTokens")), { class: "number" }),
          td("Cost", priced ? dollars(sum("costUsd")) : "no prices", { class: "number" })));
      }
      for (const model of members) {
        rows.push(el("tr", { "data-model": model.model, ...(grouped ? { class: "in-family" } : {}) },
          td("Model", model.model), td("Requests", String(model.requests), { class: "number" }),
          td("Latency p50 · p95", spread(model.latency), { class: "number" }),
          td("First token p50 · p95", spread(model.firstToken), { class: "number" }),
          td("Tokens in · out", count(model.inputTokens) + " · " + count(model.outputTokens), { class: "number" }),
          td("Cost", model.costUsd === undefined ? "no prices" : dollars(model.costUsd), { class: "number" })));
      }
    }
    $("models-body").replaceChildren(...rows);
    $("models-empty").hidden = models.length > 0;
  }

  function renderFirstToken(rows) {
    const ms = (value) => (value >= 10000 ? (value / 1000).toFixed(0) + " s" : value >= 1000 ? (value / 1000).toFixed(1) + " s" : Math.round(value) + " ms");
    $("first-token-body").replaceChildren(...rows.map((row) => el("tr", { "data-model": row.provider + "/" + row.model },
      td("Model", row.provider + "/" + row.model), td("Samples", String(row.samples), { class: "number" }),
      td("First token p50 · p95 · p99", ms(row.p50Ms) + " · " + ms(row.p95Ms) + " · " + ms(row.p99Ms), { class: "number" }),
      td("Deadline", ms(row.deadlineMs), { class: "number" }),
      td("Hedge after", row.hedgeAfterMs === null ? "off" : ms(row.hedgeAfterMs), { class: "number" }))));
  }

  function renderActivity(activity) {
    state.activity = activity;
    const buckets = activity.buckets;
    stackedBars($("chart-requests"), buckets, (bucket) => ({ ...bucket.answeredBy, "no answer": bucket.failed }), 150);
    stackedBars($("chart-failures"), buckets, (bucket) => ({ ...bucket.failures, fallback: bucket.fallbacks }), 120);
    const models = new Set(), reasons = new Set();
    for (const bucket of buckets) { Object.keys(bucket.answeredBy).forEach((m) => models.add(m)); Object.keys(bucket.failures).forEach((r) => reasons.add(r)); }
    legend($("legend-requests"), [...models, ...(activity.totals.failed ? ["no answer"] : [])]);
    legend($("legend-failures"), [...reasons, ...(activity.totals.fallbacks ? ["fallback"] : [])]);
    const t = activity.totals;
    const failedAttempts = Object.values(t.failures).reduce((a, b) => a + b, 0);
    $("activity-summary").textContent = t.requests + " requests · " + t.fallbacks + " moved to a fallback · " + t.failed + " unanswered · " +
      failedAttempts + " failed attempts";
    card("card-requests", String(t.requests), failedAttempts + " failed attempts");
    card("card-fallbacks", String(t.fallbacks), "moves to the next model");
    card("card-failed", String(t.failed), "no model answered");
    card("card-latency", spread(t.latency), "whole request");
    card("card-first-token", spread(t.firstToken), t.firstToken ? "streams" : "no streams yet");
    card("card-tokens", count(t.inputTokens) + " · " + count(t.outputTokens), "input · output");
    card("card-cost", dollars(t.costUsd), t.costUsd === undefined ? "no prices known for these models" : "priced answers");
    renderModels(activity.models || []);
  }

  async function refresh() {
    try {
      const query = "?agent=" + encodeURIComponent(state.agentId) + "&sessionsOffset=" + state.sessionsOffset + "&sessionsLimit=" + state.sessionsLimit;
      const [statusResponse, activityResponse] = await Promise.all([fetch("/status" + query), fetch("/dashboard/activity")]);
      if (!statusResponse.ok) throw new Error("/status answered " + statusResponse.status);
      const status = await statusResponse.json();
      state.skewMs = status.now - Date.now();
      renderProfiles(status);
      renderSessions(status);
      renderFirstToken(status.firstToken || []);
      if (activityResponse.ok) renderActivity(await activityResponse.json());
      $("updated").textContent = "updated " + clock(serverNow());
      $("updated").className = "meta";
      document.body.dataset.loaded = "true";
    } catch (error) {
      $("updated").textContent = "not updating: " + error.message;
      $("updated").className = "meta stale";
    }
  }

  $("token").value = token();
  $("token").addEventListener("change", (event) => { sessionStorage.setItem("detour-admin-token", event.target.value.trim()); });
  $("agent").addEventListener("change", (event) => { state.agentId = event.target.value; state.sessionsOffset = 0; refresh(); });
  $("sessions-prev").addEventListener("click", () => { state.sessionsOffset = Math.max(0, state.sessionsOffset - state.sessionsLimit); refresh(); });
  $("sessions-next").addEventListener("click", () => { state.sessionsOffset += state.sessionsLimit; refresh(); });
  // A rotated phone or a resized window gets charts drawn for the new width.
  let drawnWidth = 0;
  new ResizeObserver(() => {
    const width = $("chart-requests").clientWidth;
    if (state.activity && width !== drawnWidth) { drawnWidth = width; renderActivity(state.activity); }
  }).observe($("chart-requests"));
  refresh();
  state.timer = setInterval(refresh, initial.refreshMs);
})();
`;
