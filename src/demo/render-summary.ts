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

/** What steering before the limit achieved, counted at the mock: did a budget have to answer 429? */
function headroomSentence(summary: SummaryEvent): string {
  const moves = `${summary.headroomMoves} turn${summary.headroomMoves === 1 ? "" : "s"} moved off a nearly spent key before its limit`;
  const rejections =
    summary.budgetRejections === 0
      ? "so no rate-limit budget ever had to answer 429"
      : `but ${summary.budgetRejections} request(s) still hit a spent budget's 429`;
  return `Headroom: ${moves}, ${rejections}.`;
}

/** What the fan-out showed: sub-agents spread over the accounts without ever exceeding an account's seats. */
function seatsSentence(summary: SummaryEvent): string | undefined {
  if (summary.subAgents === 0 || summary.seatLimit === null) return undefined;
  const limit = summary.maxInFlightPerAccount <= summary.seatLimit ? "never more than" : "but once";
  return (
    `Seats: ${summary.subAgents} sub-agents spread over ${summary.accountsUsed} accounts, ${limit} ${summary.maxInFlightPerAccount} in flight ` +
    `on one (each has ${summary.seatLimit} seats); ${summary.seatWaits} waited in line for a seat, ${summary.concurrency429s} concurrency 429s upstream.`
  );
}

export function renderSummary(summary: SummaryEvent, colors: CliOutput["colors"], color: boolean): string[] {
  const totals = renderTable(
    [
      "requests",
      "answered",
      "rotations",
      "fallbacks",
      "disables",
      "primary probes",
      "recoveries",
      "moved before a limit",
      "streams rescued",
      "hedges won",
    ],
    [
      [
        summary.requests,
        summary.answered,
        summary.rotations,
        summary.fallbacks,
        summary.disables,
        summary.primaryProbes,
        summary.recoveries,
        summary.headroomMoves,
        summary.rescuedStreams,
        summary.hedgesWon,
      ],
    ],
    color,
  );
  const profiles = renderTable(
    ["profile", "state now", "answered", "failures", "calls to provider"],
    summary.profiles.map((profile) => [
      profile.id,
      stateText(profile),
      profile.answered,
      failuresText(profile.failures),
      profile.upstreamCalls,
    ]),
    color,
  );
  return [
    colors.bold("Summary"),
    totals,
    "",
    profiles,
    "",
    headroomSentence(summary),
    ...[seatsSentence(summary)].filter((line): line is string => line !== undefined),
    colors.dim(
      `The demo clock skipped ${formatDuration(summary.skippedMs)} (cooldowns and probe intervals kept their real length); ` +
        `the run took ${(summary.elapsedMs / 1000).toFixed(1)} s.`,
    ),
    colors.dim("Every answer came through the gateway over HTTP; nothing left 127.0.0.1."),
  ];
}
