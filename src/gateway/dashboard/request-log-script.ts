/**
 * The request log's browser script (R-OB-4), served inline beside the dashboard's own script with the same
 * nonce. It polls `GET /admin/runs` with the filters of the form and the admin token the user typed (kept in
 * sessionStorage by the dashboard script), draws one row per run, and opens a run into its attempt timeline:
 * an SVG with the attempts as bars on the run's time axis, coloured by outcome, a tick where the first token
 * arrived, and the run's waits. Every value from the server is inserted as text, never as HTML.
 */
export const REQUEST_LOG_SCRIPT = String.raw`
(() => {
  "use strict";
  const $ = (id) => document.getElementById(id);
  if (!$("runs-body")) return;
  const initial = JSON.parse($("detour-initial").textContent);
  const SVG_NS = "http://www.w3.org/2000/svg";
  const OUTCOME_COLOURS = { succeeded: "#16a34a", failed: "#dc2626", aborted: "#9ca3af", content_filter: "#d97706", pending: "#cbd5e1" };
  const state = { expanded: new Set(), runs: [], drawn: "", models: new Set(), inFlight: 0, latest: 0 };
  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "class") node.className = value;
      else node.setAttribute(key, value);
    }
    for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    return node;
  };
  const svg = (tag, attrs, text) => {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const td = (label, content, attrs) => el("td", Object.assign({ "data-label": label }, attrs || {}), content);
  const clock = (ms) => new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  const duration = (ms) => (ms < 1000 ? Math.round(ms) + " ms" : (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + " s");
  // One run costs cents or less: four decimals below a dollar, so two runs' spends can be told apart.
  const dollars = (n) => (n === 0 ? "$0" : n < 1 ? "$" + n.toFixed(4) : "$" + n.toFixed(2));
  const modelRef = (provider, model) => provider + "/" + model;

  /** Time from the run's start to the answer's first content: the answering attempt's offset plus its first-token time. */
  function firstTokenOf(run) {
    for (const attempt of run.attempts) {
      if (attempt.outcome === "succeeded" && typeof attempt.firstTokenMs === "number") return attempt.offsetMs + attempt.firstTokenMs;
    }
    return null;
  }

  function spendOf(run) {
    return run.attempts.some((attempt) => typeof attempt.costUsd === "number") ? run.costUsd : null;
  }

  function attemptLabel(attempt) {
    return modelRef(attempt.provider, attempt.model) + (attempt.profileId ? " · " + attempt.profileId : "");
  }

  function attemptResult(attempt) {
    if (attempt.outcome === null) return "no outcome";
    const parts = [attempt.outcome === "succeeded" ? "ok" : attempt.outcome];
    if (attempt.status !== null) parts.push(String(attempt.status));
    if (attempt.reason) parts.push(attempt.reason);
    if (attempt.continuation) parts.push("continuation " + attempt.continuation);
    if (attempt.hedge) parts.push("hedge");
    return parts.join(" ");
  }

  /** Round steps for the time axis: 1, 2 or 5 × 10^n milliseconds, about four of them. */
  function tickStep(span) {
    const rough = span / 4;
    const power = Math.pow(10, Math.floor(Math.log10(Math.max(1, rough))));
    for (const step of [1, 2, 5, 10]) if (step * power >= rough) return step * power;
    return 10 * power;
  }

  function timeline(run, width) {
    const attempts = run.attempts;
    const waits = run.waits || [];
    const ends = attempts.map((a) => a.offsetMs + (a.durationMs || 0)).concat(waits.map((w) => w.offsetMs + w.waitMs));
    const span = Math.max(1, run.durationMs, ...ends);
    const labelWidth = Math.min(300, Math.max(150, Math.floor(width * 0.32)));
    const left = labelWidth + 8, right = 16, top = 6, rowHeight = 24, axisHeight = 22;
    const rows = attempts.length + (waits.length > 0 ? 1 : 0);
    const height = top + rows * rowHeight + axisHeight;
    const plot = Math.max(60, width - left - right);
    const x = (ms) => left + (Math.min(ms, span) / span) * plot;
    const chart = svg("svg", { viewBox: "0 0 " + width + " " + height, width, height, class: "timeline", role: "img", "aria-label": "Attempts of run " + run.runId + " on a time axis" });
    const step = tickStep(span);
    for (let tick = 0; tick <= span + 0.5; tick += step) {
      chart.append(svg("line", { x1: x(tick), y1: top, x2: x(tick), y2: top + rows * rowHeight, class: "grid-line" }));
      chart.append(svg("text", { x: x(tick), y: height - 6, class: "axis", "text-anchor": tick === 0 ? "start" : "middle" }, duration(tick)));
    }
    attempts.forEach((attempt, index) => {
      const y = top + index * rowHeight;
      const outcome = attempt.outcome || "pending";
      chart.append(svg("text", { x: labelWidth, y: y + 16, class: "attempt-label", "text-anchor": "end" }, attemptLabel(attempt)));
      const start = x(attempt.offsetMs);
      const length = attempt.durationMs === null ? Math.max(2, x(span) - start) : Math.max(3, x(attempt.offsetMs + attempt.durationMs) - start);
      const bar = svg("rect", {
        x: start, y: y + 4, width: length, height: rowHeight - 8, rx: 3,
        fill: OUTCOME_COLOURS[outcome] || OUTCOME_COLOURS.pending,
        class: "attempt-bar" + (attempt.hedge ? " hedge" : ""),
        "data-attempt": index, "data-outcome": outcome,
      });
      const title = attemptLabel(attempt) + ": " + attemptResult(attempt) + " · from " + duration(attempt.offsetMs) +
        (attempt.durationMs !== null ? " for " + duration(attempt.durationMs) : "") +
        (attempt.firstTokenMs !== null && attempt.firstTokenMs !== undefined ? " · first token after " + duration(attempt.firstTokenMs) : "") +
        (typeof attempt.costUsd === "number" ? " · " + dollars(attempt.costUsd) : "");
      bar.append(svg("title", {}, title));
      chart.append(bar);
      if (typeof attempt.firstTokenMs === "number") {
        const at = x(attempt.offsetMs + attempt.firstTokenMs);
        chart.append(svg("line", { x1: at, y1: y + 1, x2: at, y2: y + rowHeight - 1, class: "first-token", "data-attempt": index }));
      }
      // The result beside the bar, or inside it when the bar reaches the right edge.
      const text = attemptResult(attempt) + (attempt.durationMs !== null ? " · " + duration(attempt.durationMs) : "");
      const after = start + length + 6;
      const inside = after + text.length * 6.2 > width - right;
      chart.append(svg("text", { x: inside ? start + length - 6 : after, y: y + 16, class: "attempt-result" + (inside ? " inside" : ""), "text-anchor": inside ? "end" : "start" }, text));
    });
    if (waits.length > 0) {
      const y = top + attempts.length * rowHeight;
      chart.append(svg("text", { x: labelWidth, y: y + 16, class: "attempt-label", "text-anchor": "end" }, "waits"));
      for (const wait of waits) {
        const start = x(wait.offsetMs);
        const bar = svg("rect", { x: start, y: y + 7, width: Math.max(2, x(wait.offsetMs + wait.waitMs) - start), height: rowHeight - 14, class: "wait-bar", "data-wait": wait.kind });
        bar.append(svg("title", {}, wait.kind + ": " + duration(wait.waitMs)));
        chart.append(bar);
      }
    }
    return chart;
  }

  function legend() {
    const item = (colour, text, className) => el("span", { class: "legend" }, el("i", { class: className || "", style: colour ? "background:" + colour : "" }), text);
    return el("div", { class: "legends" },
      item(OUTCOME_COLOURS.succeeded, "answered"), item(OUTCOME_COLOURS.failed, "failed"), item(OUTCOME_COLOURS.aborted, "aborted"),
      item("", "first token", "first-token-key"), item("", "wait", "wait-key"));
  }

  function detail(run, width) {
    const box = el("div", { class: "run-detail-box" });
    box.append(timeline(run, width), legend());
    const facts = [];
    facts.push("run " + run.runId);
    if (run.chain && run.chain.length) facts.push("chain " + run.chain.join(" → "));
    if (run.request) {
      if (run.request.dialect) facts.push(run.request.dialect + (run.request.stream ? ", streamed" : ""));
      if (typeof run.request.estimatedInputTokens === "number") facts.push("~" + run.request.estimatedInputTokens + " input tokens");
    }
    const tokens = run.attempts.reduce((sum, a) => ({ input: sum.input + (a.inputTokens || 0), output: sum.output + (a.outputTokens || 0) }), { input: 0, output: 0 });
    if (tokens.input || tokens.output) facts.push("tokens " + tokens.input + " in · " + tokens.output + " out");
    box.append(el("p", { class: "meta run-facts" }, facts.join(" · ")));
    if (run.skips && run.skips.length) {
      box.append(el("p", { class: "meta" }, "Passed over: " + run.skips.map((skip) => skip.model + (skip.profileId ? " · " + skip.profileId : "") + (skip.reason ? " (" + skip.reason + ")" : "")).join(", ")));
    }
    if (run.notices && run.notices.length) {
      box.append(el("p", { class: "meta" }, "Notices: " + run.notices.map((notice) => notice.kind + " → " + notice.activeModel).join(", ")));
    }
    return box;
  }

  function toggle(run, button) {
    if (state.expanded.has(run.runId)) state.expanded.delete(run.runId);
    else state.expanded.add(run.runId);
    state.drawn = "";
    render();
    const again = document.querySelector('button.run-toggle[data-run="' + CSS.escape(run.runId) + '"]');
    if (again && button) again.focus();
  }

  function render() {
    const key = JSON.stringify([state.runs.map((run) => run.runId), [...state.expanded], $("runs-body").clientWidth]);
    if (key === state.drawn) return;
    state.drawn = key;
    const columns = document.querySelectorAll("#runs-table thead th").length;
    const width = Math.max(320, ($("runs-table").clientWidth || 800) - 24);
    const rows = [];
    for (const run of state.runs) {
      const open = state.expanded.has(run.runId);
      const button = el("button", { type: "button", class: "run-toggle", "data-run": run.runId, "aria-expanded": String(open), title: open ? "Close the timeline" : "Open the attempt timeline" }, open ? "▾" : "▸");
      button.addEventListener("click", () => toggle(run, button));
      const answered = run.answeredBy ? modelRef(run.answeredBy.provider, run.answeredBy.model) : "";
      const firstToken = firstTokenOf(run);
      const spend = spendOf(run);
      const failedAttempts = run.attempts.filter((a) => a.outcome === "failed").length;
      const session = run.sessionHash
        ? el("button", { type: "button", class: "linkish session-hash", "data-session": run.sessionHash, title: "Only this session's runs" }, run.sessionHash.slice(0, 8) + "…")
        : "";
      if (session) session.addEventListener("click", () => { $("runs-session").value = run.sessionHash; refresh(); });
      rows.push(el("tr", { class: "run-row", "data-run": run.runId, "data-outcome": run.outcome },
        td("", button),
        td("Started", clock(run.startedAt), { class: "number" }),
        td("Outcome", el("span", { class: "badge run " + run.outcome }, run.outcome === "content_filter" ? "refused" : run.outcome)),
        td("Model", run.request.requestedModel),
        td("Answered by", answered, { class: answered && answered !== run.request.requestedModel ? "moved" : "" }),
        td("Attempts", run.attempts.length + (failedAttempts ? " (" + failedAttempts + " failed)" : ""), { class: "number" }),
        td("Latency", duration(run.durationMs), { class: "number" }),
        td("First token", firstToken === null ? "–" : duration(firstToken), { class: "number" }),
        td("Spend", spend === null ? "–" : dollars(spend), { class: "number" }),
        td("Session", session)));
      if (open) rows.push(el("tr", { class: "run-detail", "data-run-detail": run.runId }, el("td", { colspan: String(columns), "data-label": "" }, detail(run, width))));
    }
    $("runs-body").replaceChildren(...rows);
  }

  function rememberModels(runs) {
    for (const run of runs) {
      state.models.add(run.request.requestedModel);
      for (const attempt of run.attempts) state.models.add(modelRef(attempt.provider, attempt.model));
    }
    // Bounded: a long-running page keeps the first hundred names it saw.
    const names = [...state.models].slice(0, 100).sort();
    $("runs-models").replaceChildren(...names.map((name) => el("option", { value: name })));
  }

  /** A changed filter asks at once; only the answer to the latest request is drawn, so an older one never wins. */
  async function refresh() {
    const ask = ++state.latest;
    state.inFlight += 1;
    try {
      const params = new URLSearchParams({ agent: $("agent").value || initial.agentId, limit: "50" });
      const outcome = $("runs-outcome").value;
      const model = $("runs-model").value.trim();
      const session = $("runs-session").value.trim();
      if (outcome) params.set("outcome", outcome);
      if (model) params.set("model", model);
      if (session) params.set(/^[0-9a-f]{32}$/.test(session) ? "sessionHash" : "session", session);
      const token = sessionStorage.getItem("detour-admin-token") || "";
      const response = await fetch("/admin/runs?" + params, token ? { headers: { authorization: "Bearer " + token } } : {});
      if (ask !== state.latest) return;
      if (response.status === 401) {
        state.runs = [];
        render();
        $("runs-message").textContent = "The request log needs the admin token: type it in the field at the top.";
        $("runs-count").textContent = "";
        return;
      }
      if (!response.ok) {
        const body = await response.json().catch(() => ({}));
        throw new Error((body.error && body.error.message) || "/admin/runs answered " + response.status);
      }
      const body = await response.json();
      if (ask !== state.latest) return;
      state.runs = body.runs;
      rememberModels(body.runs);
      render();
      const filtered = outcome || model || session;
      $("runs-message").textContent = body.runs.length === 0 ? (filtered ? "No recent run matches these filters." : "No runs recorded yet.") : "";
      const writes = body.traceWrites;
      $("runs-count").textContent = body.runs.length + (body.runs.length === body.limit ? "+ " : " ") + (body.runs.length === 1 ? "run" : "runs") +
        (writes && writes.dropped ? " · " + writes.dropped + " traces dropped" : "");
    } catch (error) {
      if (ask === state.latest) $("runs-message").textContent = "Request log not updating: " + error.message;
    } finally {
      state.inFlight -= 1;
    }
  }

  $("runs-filters").addEventListener("submit", (event) => { event.preventDefault(); refresh(); });
  for (const id of ["runs-outcome", "runs-model", "runs-session"]) $(id).addEventListener("change", refresh);
  $("runs-clear").addEventListener("click", () => {
    $("runs-outcome").value = ""; $("runs-model").value = ""; $("runs-session").value = "";
    refresh();
  });
  $("agent").addEventListener("change", () => { state.expanded.clear(); refresh(); });
  $("token").addEventListener("change", () => setTimeout(refresh, 0));
  new ResizeObserver(() => { if (state.expanded.size > 0) render(); }).observe($("runs-table"));
  refresh();
  // The periodic refresh waits its turn: a slow gateway is not asked again while an answer is still coming.
  setInterval(() => { if (state.inFlight === 0) refresh(); }, initial.refreshMs);
})();
`;
