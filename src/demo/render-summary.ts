/** The closing summary for people: the storyline's totals, then every profile's final state, as tables. */
import { renderTable, type CliOutput } from "../terminal/output.js";
import type { ProfileSummary, SummaryEvent } from "./demo-events.js";
import { formatDuration } from "./format-duration.js";

function stateText(profile: ProfileSummary): string {
  if (profile.lane === "ready" || profile.remainingMs === null) return "ready";
  return `${profile.lane} ${formatDuration(profile.remainingMs)}${profile.reason ? ` (${profile.reason})` : ""}`;
}

function failuresText(failures: Readonly<Record<string, number>>): string {
  const parts = Object.entries(failures).map(([reason, count]) => `${reason} ×${count}`);
  return parts.length > 0 ? parts.join(", ") : "-";
}

export function renderSummary(summary: SummaryEvent, colors: CliOutput["colors"], color: boolean): string[] {
  const totals = renderTable(
    ["requests", "answered", "rotations", "fallbacks", "disables", "primary probes", "recoveries", "streams rescued"],
    [[summary.requests, summary.answered, summary.rotations, summary.fallbacks, summary.disables, summary.primaryProbes, summary.recoveries, summary.rescuedStreams]],
    color,
  );
  const profiles = renderTable(
    ["profile", "state now", "answered", "failures", "calls to provider"],
    summary.profiles.map((profile) => [profile.id, stateText(profile), profile.answered, failuresText(profile.failures), profile.upstreamCalls]),
    color,
  );
  return [
    colors.bold("Summary"),
    totals,
    "",
    profiles,
    "",
    colors.dim(
      `The demo clock skipped ${formatDuration(summary.skippedMs)} (cooldowns and probe intervals kept their real length); ` +
        `the run took ${(summary.elapsedMs / 1000).toFixed(1)} s.`,
    ),
    colors.dim("Every answer came through the gateway over HTTP; nothing left 127.0.0.1."),
  ];
}
