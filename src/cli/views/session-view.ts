/** Session overrides as a table row and as `key: value` lines (R-SO-4: selected model, active fallback). */
import type { SessionStatus } from "../../engine/index.js";
import { formatTimestamp } from "./profile-view.js";

export const SESSION_TABLE_HEAD = ["session", "model", "source", "fallback for", "profile pin", "updated"] as const;

export function sessionRow(session: SessionStatus, now: number): (string | undefined)[] {
  const pin = session.authProfileOverride ? `${session.authProfileOverride} (${session.authProfileOverrideSource ?? "user"})` : undefined;
  return [
    session.sessionKey,
    session.selectedModel ?? "(agent default)",
    session.modelOverrideSource,
    session.fallbackOrigin,
    pin,
    formatTimestamp(session.updatedAt, now),
  ];
}

export function sessionLines(session: SessionStatus, now: number): string[] {
  const lines = [
    `session:        ${session.sessionKey}`,
    `model:          ${session.selectedModel ?? "(agent default)"}${session.modelOverrideSource ? ` (${session.modelOverrideSource})` : ""}`,
  ];
  if (session.fallbackOrigin)
    lines.push(`fallback for:   ${session.fallbackOrigin} (auto fallback; the primary is probed every 5 minutes)`);
  if (session.authProfileOverride) {
    lines.push(`profile pin:    ${session.authProfileOverride} (${session.authProfileOverrideSource ?? "user"})`);
  }
  if (session.compactionCount !== undefined) lines.push(`compactions:    ${session.compactionCount}`);
  if (session.pendingLiveSwitch) lines.push("pending switch: yes (applies on the next run)");
  lines.push(`updated:        ${formatTimestamp(session.updatedAt, now)}`);
  return lines;
}
