/**
 * The dashboard's request log (R-OB-4): the section's skeleton, filled by request-log-script.ts from
 * `GET /admin/runs`. Recent runs, newest first, filterable by outcome, model and session; each run opens into
 * its attempt timeline. Only what a run trace holds is shown: no prompt or answer text, no secret, the
 * session key only as its hash.
 */
export const REQUEST_LOG_COLUMNS = [
  "",
  "Started",
  "Outcome",
  "Model",
  "Answered by",
  "Attempts",
  "Latency",
  "First token",
  "Spend",
  "Session",
] as const;

const OUTCOME_OPTIONS = [
  ["", "any outcome"],
  ["succeeded", "succeeded"],
  ["failed", "failed"],
  ["aborted", "aborted"],
  ["content_filter", "refused (content_filter)"],
] as const;

export function renderRequestLog(): string {
  const head = REQUEST_LOG_COLUMNS.map((column) => `<th>${column}</th>`).join("");
  const outcomes = OUTCOME_OPTIONS.map(([value, label]) => `<option value="${value}">${label}</option>`).join("");
  return `<section class="request-log" id="request-log"><h2>Request log <span id="runs-count" class="meta"></span></h2>
<form id="runs-filters" class="runs-filters" autocomplete="off">
<label>Outcome <select id="runs-outcome" name="outcome">${outcomes}</select></label>
<label>Model <input id="runs-model" name="model" list="runs-models" placeholder="provider/model" size="22"></label>
<datalist id="runs-models"></datalist>
<label>Session <input id="runs-session" name="session" placeholder="session key or hash" size="22"></label>
<button id="runs-clear" type="button">Clear</button>
</form>
<table class="stack runs" id="runs-table"><thead><tr>${head}</tr></thead><tbody id="runs-body"></tbody></table>
<p id="runs-message" class="meta">Loading recent runs…</p>
<p class="meta">Newest first, from the run traces (<code>GET /admin/runs</code>, an admin route: type the admin token above when the gateway has one). Open a run for its attempts on a time axis. Latency: the whole run. First token: from the run's start to the answer's first content (streams). No prompt or answer text is recorded; sessions show as hashes.</p>
</section>`;
}
