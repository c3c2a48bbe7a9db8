/**
 * The dashboard's browser script, served inline with a per-response nonce (no build step, no external
 * assets: it works on an air-gapped host and leaks nothing to a CDN). It polls `/status` and
 * `/dashboard/activity`, redraws the profile table, the chart of the last 15 minutes and the sessions page,
 * and calls the admin API's profile reset with the admin token the user typed (kept in sessionStorage only).
 * Every value from the server is inserted as text, never as HTML.
 */
export const DASHBOARD_SCRIPT = String.raw`
(() => {
  "use strict";
  const initial = JSON.parse(document.getElementById("detour-initial").textContent);
  const state = { agentId: initial.agentId, skewMs: 0, sessionsOffset: 0, sessionsLimit: 20, timer: null };
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
      return el("tr", { "data-profile": profile.id, "data-state": current.name },
        el("td", {}, profile.id), el("td", {}, profile.provider || ""), el("td", {}, profile.type || ""),
        el("td", {}, el("span", { class: "badge " + current.name }, current.name)),
        el("td", {}, why), el("td", { class: "recovers" }, recovers),
        el("td", { class: profile.headroom && profile.headroom.nearlySpent ? "headroom spent" : "headroom" }, headroomText(profile)),
        el("td", {}, failures), el("td", {}, profile.usageStats && profile.usageStats.lastUsed ? clock(profile.usageStats.lastUsed) : ""),
        el("td", {}, button));
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
      el("td", {}, session.sessionKey), el("td", {}, session.selectedModel || session.modelOverride || ""),
      el("td", {}, session.modelOverrideSource || ""), el("td", {}, session.fallbackOrigin || ""),
      el("td", {}, session.authProfileOverride || ""), el("td", {}, session.updatedAt ? clock(session.updatedAt) : ""))));
    const first = total === 0 ? 0 : state.sessionsOffset + 1;
    $("sessions-range").textContent = first + "–" + Math.min(total, state.sessionsOffset + page.length) + " of " + total;
    $("sessions-prev").disabled = state.sessionsOffset === 0;
    $("sessions-next").disabled = state.sessionsOffset + state.sessionsLimit >= total;
  }

  function stackedBars(target, buckets, seriesOf, height) {
    const width = 900, left = 30, barWidth = (width - left) / buckets.length;
    const totals = buckets.map((bucket) => Object.values(seriesOf(bucket)).reduce((a, b) => a + b, 0));
    const max = Math.max(1, ...totals);
    const chart = svg("svg", { viewBox: "0 0 " + width + " " + (height + 18), class: "chart", role: "img" });
    chart.append(svg("line", { x1: left, y1: height, x2: width, y2: height, stroke: "#ccc" }));
    const label = svg("text", { x: 0, y: 10, class: "axis" }); label.textContent = String(max); chart.append(label);
    buckets.forEach((bucket, index) => {
      let y = height;
      for (const [name, count] of Object.entries(seriesOf(bucket))) {
        if (!count) continue;
        const barHeight = (count / max) * (height - 4);
        y -= barHeight;
        const rect = svg("rect", { x: left + index * barWidth, y, width: Math.max(1, barWidth - 1), height: barHeight, fill: colourOf(name), "data-series": name });
        const title = svg("title", {}); title.textContent = name + ": " + count + " at " + clock(bucket.start); rect.append(title);
        chart.append(rect);
      }
    });
    for (const [offset, text] of [[0, "-15 min"], [buckets.length / 3, "-10 min"], [(2 * buckets.length) / 3, "-5 min"]]) {
      const tick = svg("text", { x: left + offset * barWidth, y: height + 14, class: "axis" }); tick.textContent = text; chart.append(tick);
    }
    target.replaceChildren(chart);
  }

  function legend(target, names) {
    target.replaceChildren(...names.map((name) => el("span", { class: "legend" }, el("i", { style: "background:" + colourOf(name) }), name)));
  }

  function renderActivity(activity) {
    const buckets = activity.buckets;
    stackedBars($("chart-requests"), buckets, (bucket) => ({ ...bucket.answeredBy, "no answer": bucket.failed }), 120);
    stackedBars($("chart-failures"), buckets, (bucket) => ({ ...bucket.failures, fallback: bucket.fallbacks }), 90);
    const models = new Set(), reasons = new Set();
    for (const bucket of buckets) { Object.keys(bucket.answeredBy).forEach((m) => models.add(m)); Object.keys(bucket.failures).forEach((r) => reasons.add(r)); }
    legend($("legend-requests"), [...models, ...(activity.totals.failed ? ["no answer"] : [])]);
    legend($("legend-failures"), [...reasons, ...(activity.totals.fallbacks ? ["fallback"] : [])]);
    const t = activity.totals;
    $("activity-summary").textContent = t.requests + " requests · " + t.fallbacks + " answered by a fallback · " + t.failed + " unanswered · " +
      Object.values(t.failures).reduce((a, b) => a + b, 0) + " failed attempts";
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
  refresh();
  state.timer = setInterval(refresh, initial.refreshMs);
})();
`;
