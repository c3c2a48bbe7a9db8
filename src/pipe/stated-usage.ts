/**
 * Cost honesty for raced attempts (R-HG-1): the input tokens a provider states before the commit point (Anthropic
 * `message_start` usage) are what it counted for the request even when the attempt then loses its race and is
 * closed. The same-wire lane reads them from its WireFormat's scanner while it still holds the stream's frames.
 */
import type { AttemptContext } from "../runner/attempt.js";
import type { RawStreamScanner } from "../wire/shared/sse-bytes.js";
import type { LaneWireFormat } from "../wire/wire-format.js";

/**
 * Wraps the commit point's progress report: on each frame before the commit (`bytes` comes after the scanner took
 * the frame) a newly stated usage is read and its input tokens are reported through `context.upstreamUsage`.
 */
export function reportStatedUsage(
  progress: (kind: "bytes" | "content") => void,
  scanner: Pick<RawStreamScanner, "usage">,
  wire: Pick<LaneWireFormat, "usage">,
  context: Pick<AttemptContext, "upstreamUsage">,
): (kind: "bytes" | "content") => void {
  const report = context.upstreamUsage;
  if (!report) return progress;
  let seen: unknown;
  return (kind) => {
    const raw = scanner.usage;
    // The scanner keeps a new object per usage it reads, so an unchanged one is not read again.
    if (raw !== undefined && raw !== seen) {
      seen = raw;
      const inputTokens = wire.usage.read(raw)?.inputTokens;
      if (inputTokens !== undefined && inputTokens > 0) report({ inputTokens });
    }
    progress(kind);
  };
}
