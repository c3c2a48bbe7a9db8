/**
 * The self-contained HTML report of `detour replay --html` and `detour drill --html` (R-OB-5): the side-by-side
 * table, per config a timeline chart (runs answered and failed per time slice, upstream 429/5xx answers on
 * top), and the runs whose outcome differs between configs with their attempts as bars on a time axis.
 * No script, no external asset: the file opens anywhere, offline.
 */
import type { RunTraceV1, TraceAttempt } from "../../core/run-trace.js";
import type { ReplayConfigReport } from "../../engine/replay/index.js";

export interface ReplayHtmlConfig {
  report: ReplayConfigReport;
  traces: readonly RunTraceV1[];
}

const SLICES = 60;
const CHART_WIDTH = 900;
const CHART_HEIGHT = 160;
const MAX_DIFFERING_RUNS = 40;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function formatMs(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(0)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}

export const REPORT_ROWS: readonly [string, (report: ReplayConfigReport) => string][] = [
  ["runs", (report) => String(report.runs)],
  ["answered", (report) => String(report.answered)],
  ["failed", (report) => String(report.failed)],
  ["upstream calls", (report) => String(report.upstreamCalls)],
  ["429 answers", (report) => String(report.upstream429)],
  ["5xx answers", (report) => String(report.upstream5xx)],
  ["added wait p50", (report) => formatMs(report.addedWaitMsP50)],
  ["added wait p99", (report) => formatMs(report.addedWaitMsP99)],
  ["notices", (report) => String(report.notices)],
  ["cost", (report) => `$${report.costUsd.toFixed(4)}`],
];

function summaryTable(configs: readonly ReplayHtmlConfig[]): string {
  const head = configs.map((config) => `<th>${escapeHtml(config.report.name)}</th>`).join("");
  const rows = REPORT_ROWS.map(
    ([label, cell]) =>
      `<tr><th scope="row">${label}</th>${configs.map((config) => `<td>${escapeHtml(cell(config.report))}</td>`).join("")}</tr>`,
  ).join("");
  return `<table class="summary"><thead><tr><th></th>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

function timelineChart(config: ReplayHtmlConfig, start: number, end: number): string {
  const spanMs = Math.max(1, end - start);
  const slices = Array.from({ length: SLICES }, () => ({ answered: 0, failed: 0, refused: 0 }));
  for (const trace of config.traces) {
    const slice = slices[Math.min(SLICES - 1, Math.floor(((trace.startedAt - start) / spanMs) * SLICES))]!;
    for (const attempt of trace.attempts)
      if (attempt.status === 429 || (attempt.status !== null && attempt.status >= 500)) slice.refused += 1;
    if (trace.outcome === "succeeded" || trace.outcome === "content_filter") slice.answered += 1;
    else if (trace.outcome === "failed") slice.failed += 1;
  }
  const most = Math.max(1, ...slices.map((slice) => Math.max(slice.answered + slice.failed, slice.refused)));
  const width = CHART_WIDTH / SLICES;
  const scale = (count: number) => (count / most) * (CHART_HEIGHT - 20);
  const bars = slices
    .map((slice, index) => {
      const x = (index * width).toFixed(1);
      const failedHeight = scale(slice.failed);
      const answeredHeight = scale(slice.answered);
      const at = new Date(start + (index / SLICES) * spanMs).toISOString().slice(11, 19);
      const title = `${at} — ${slice.answered} answered, ${slice.failed} failed, ${slice.refused} upstream 429/5xx`;
      return (
        `<g><title>${title}</title>` +
        `<rect class="answered" x="${x}" y="${(CHART_HEIGHT - answeredHeight).toFixed(1)}" width="${(width - 1).toFixed(1)}" height="${answeredHeight.toFixed(1)}"/>` +
        `<rect class="failed" x="${x}" y="${(CHART_HEIGHT - answeredHeight - failedHeight).toFixed(1)}" width="${(width - 1).toFixed(1)}" height="${failedHeight.toFixed(1)}"/>` +
        `<circle class="refused" cx="${(index * width + width / 2).toFixed(1)}" cy="${(CHART_HEIGHT - scale(slice.refused)).toFixed(1)}" r="${slice.refused > 0 ? 2.5 : 0}"/></g>`
      );
    })
    .join("");
  const startLabel = new Date(start).toISOString().replace("T", " ").slice(0, 19);
  const endLabel = new Date(end).toISOString().replace("T", " ").slice(0, 19);
  return (
    `<figure><figcaption>${escapeHtml(config.report.name)}: runs per time slice (green answered, red failed; dots: upstream 429/5xx answers)</figcaption>` +
    `<svg class="timeline" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT + 16}" role="img" aria-label="timeline of ${escapeHtml(config.report.name)}">${bars}` +
    `<text x="0" y="${CHART_HEIGHT + 13}">${startLabel} UTC</text><text x="${CHART_WIDTH}" y="${CHART_HEIGHT + 13}" text-anchor="end">${endLabel} UTC</text></svg></figure>`
  );
}

function attemptClass(attempt: TraceAttempt): string {
  if (attempt.outcome === "succeeded") return "answered";
  if (attempt.status === 429) return "limited";
  return attempt.outcome === "failed" ? "failed" : "aborted";
}

function runBars(trace: RunTraceV1 | undefined, spanMs: number): string {
  if (!trace) return `<td>not replayed</td>`;
  const bars = trace.attempts
    .map((attempt) => {
      const x = (attempt.offsetMs / spanMs) * 300;
      const endMs = attempt.finishedOffsetMs ?? attempt.offsetMs + (attempt.durationMs ?? 0);
      const width = Math.max(2, ((endMs - attempt.offsetMs) / spanMs) * 300);
      const label = `${attempt.provider}/${attempt.model} ${attempt.profileId ?? ""} ${attempt.status ?? ""} ${attempt.reason ?? attempt.outcome ?? ""} at +${attempt.offsetMs} ms`;
      return `<rect class="${attemptClass(attempt)}" x="${x.toFixed(1)}" y="2" width="${width.toFixed(1)}" height="12"><title>${escapeHtml(label)}</title></rect>`;
    })
    .join("");
  return `<td class="${trace.outcome}">${trace.outcome}, ${formatMs(trace.durationMs)}<br><svg class="run" viewBox="0 0 300 16">${bars}</svg></td>`;
}

function differingRuns(configs: readonly ReplayHtmlConfig[]): string {
  if (configs.length < 2) return "";
  const byRun = configs.map((config) => new Map(config.traces.map((trace) => [trace.runId, trace])));
  const first = configs[0]!.traces;
  const differing = first.filter((trace) => byRun.some((runs) => runs.get(trace.runId)?.outcome !== trace.outcome));
  if (differing.length === 0) return `<p>Every run ended the same way under every config.</p>`;
  const shown = differing.slice(0, MAX_DIFFERING_RUNS);
  const rows = shown
    .map((trace) => {
      const replays = byRun.map((runs) => runs.get(trace.runId));
      const spanMs = Math.max(1, ...replays.map((replay) => replay?.durationMs ?? 0));
      const at = new Date(trace.startedAt).toISOString().replace("T", " ").slice(0, 23);
      return `<tr><th scope="row">${escapeHtml(at)}<br><code>${escapeHtml(trace.runId)}</code></th>${replays.map((replay) => runBars(replay, spanMs)).join("")}</tr>`;
    })
    .join("");
  const head = configs.map((config) => `<th>${escapeHtml(config.report.name)}</th>`).join("");
  return (
    `<h2>Runs that ended differently (${differing.length}${differing.length > shown.length ? `, first ${shown.length} shown` : ""})</h2>` +
    `<p>Attempts as bars on the run's time axis: green answered, amber 429, red failed, grey abandoned.</p>` +
    `<table class="runs"><thead><tr><th>run</th>${head}</tr></thead><tbody>${rows}</tbody></table>`
  );
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1d2330;background:#fff}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}table{border-collapse:collapse}
th,td{padding:.3rem .7rem;border-bottom:1px solid #e3e6ec;text-align:left;vertical-align:top}
.summary td{text-align:right;font-variant-numeric:tabular-nums}figure{margin:1.2rem 0}figcaption{color:#555;margin-bottom:.3rem}
svg.timeline{width:100%;max-width:${CHART_WIDTH}px;background:#f7f8fa}svg text{font-size:11px;fill:#555}
svg.run{width:300px;height:16px;background:#f7f8fa}rect.answered{fill:#2e9d5b}rect.failed{fill:#d0433a}rect.limited{fill:#e2a23b}rect.aborted{fill:#9aa1ad}
circle.refused{fill:#7a3fb5}td.failed{color:#b3261e}code{font-size:12px;color:#555}`;

export function renderReplayHtml(title: string, configs: readonly ReplayHtmlConfig[], notes: readonly string[] = []): string {
  const all = configs.flatMap((config) => config.traces);
  const start = Math.min(...all.map((trace) => trace.startedAt));
  const end = Math.max(...all.map((trace) => trace.startedAt + trace.durationMs));
  const charts = Number.isFinite(start) ? configs.map((config) => timelineChart(config, start, end)).join("") : "<p>No runs.</p>";
  const noteList = notes.length > 0 ? `<ul>${notes.map((note) => `<li>${escapeHtml(note)}</li>`).join("")}</ul>` : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(title)}</h1>${noteList}${summaryTable(configs)}<h2>Timeline</h2>${charts}${differingRuns(configs)}</body></html>
`;
}
