/**
 * The canonical side of the pipe's one commit point (SPEC R-ST-1…R-ST-3): a provider's canonical events (the
 * upstream's frames decoded by its WireFormat) go through the same commit point as forwarded bytes
 * (commit-point.ts), watched by the canonical watch: a text or tool-call delta is content, `message-start` a
 * lifecycle frame held until then (and skipped when a continuation repeats it), an error event or a finish with
 * stop reason `error` a failure, a finish the end of the answer. Also here: the failures both sides throw and the
 * abort plumbing of one streamed call.
 *
 * Watchdogs sleep on the injected Clock, so tests drive them with a FakeClock.
 */
import type { CanonicalStreamEvent } from "../ports/canonical.js";
import type { Clock } from "../ports/clock.js";
import { UpstreamFailure } from "../ports/provider.js";
import { commitFrames, type CommittedFrames, type FrameWatch } from "./commit-point.js";
import { cutFailure } from "./stream-failures.js";
import { pushedFromIterable } from "./pushed-iterable.js";

export interface StreamCommitOptions {
  /** Opens the upstream stream with the signal the commit point controls (watchdogs and aborts). */
  open: (signal: AbortSignal) => AsyncIterable<CanonicalStreamEvent>;
  clock: Clock;
  /** R-ST-1: no first content within this budget (from `open`) fails the attempt over. */
  ttftTimeoutMs: number;
  /** R-ST-1/R-ST-2: a gap longer than this between two upstream events is a stall. */
  stallTimeoutMs: number;
  /** The attempt's signal: obeyed only until the commit (the runner's watchdog must not cut a live stream). */
  attemptSignal?: AbortSignal;
  /** The caller's own signal (client disconnect): obeyed for the whole stream. */
  callerSignal?: AbortSignal;
  /** Names the failure for the classifier and the logs. */
  provider: string;
  model: string;
  /** R-HG-1: told of the first upstream event and of the first content (the runner races slow attempts). */
  progress?: (kind: "bytes" | "content") => void;
  /** R-HG-1: told of the input tokens the provider stated before the commit, so a closed loser is charged them. */
  statedUsage?: (usage: { inputTokens: number }) => void;
}

/**
 * A committed canonical stream: `head` holds the held lifecycle frames followed by the first content event,
 * `rest` everything after it (ending after `finish`), and `release` lets go of a complete answer's call without
 * cutting it (the provider's iterator is returned, not aborted, so its connection is kept).
 */
export type CommittedStream = CommittedFrames<CanonicalStreamEvent>;

function isContent(event: CanonicalStreamEvent): boolean {
  if (event.type === "text-delta") return event.text !== "";
  return event.type === "tool-call-delta";
}

function failureOfErrorEvent(provider: string, error: unknown): Error {
  if (error instanceof UpstreamFailure) return error;
  if (error instanceof Error && (error.name === "AbortError" || "failure" in error)) return error;
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "stream error event";
  return new UpstreamFailure(`${provider} reported an error mid-stream: ${message}`, { provider, message }, error);
}

/** What each canonical event is to the commit point: the canonical twin of a WireFormat's stream scanner. */
class CanonicalWatch implements FrameWatch<CanonicalStreamEvent> {
  committed = false;
  complete = false;

  constructor(
    private readonly provider: string,
    private readonly model: string,
    private readonly statedUsage: StreamCommitOptions["statedUsage"],
  ) {}

  push(event: CanonicalStreamEvent): { forward: CanonicalStreamEvent | undefined; failure?: unknown } {
    switch (event.type) {
      case "error":
        return { forward: undefined, failure: event.error };
      case "message-start":
        if (event.inputTokens !== undefined && !this.committed) this.statedUsage?.({ inputTokens: event.inputTokens });
        // Held until content exists (R-ST-1); a repeat after the commit is not the client's business.
        return { forward: this.committed ? undefined : event };
      case "finish":
        if (event.reason === "error")
          return { forward: undefined, failure: cutFailure(this.provider, this.model, "stream finished with stop reason: error") };
        // A finish completes the answer at once (R-ST-2); one without any content (an empty completion) is still one.
        this.committed = true;
        this.complete = true;
        return { forward: event };
      default:
        if (this.committed) return { forward: event };
        // Before the first content only lifecycle frames are kept; empty deltas are dropped.
        if (!isContent(event)) return { forward: undefined };
        this.committed = true;
        return { forward: event };
    }
  }

  end(): { complete: boolean } {
    return { complete: this.complete };
  }
}

/**
 * Reads the provider's events until their first content and resolves with the committed stream. Rejects (so
 * the runner fails over) on any failure before that point.
 */
export function commitStream(options: StreamCommitOptions): Promise<CommittedStream> {
  const { open, provider, model, statedUsage, ...budgets } = options;
  return commitFrames<CanonicalStreamEvent>({
    ...budgets,
    provider,
    model,
    open: (signal) => Promise.resolve(pushedFromIterable(open(signal))),
    watch: new CanonicalWatch(provider, model, statedUsage),
    failureOf: (failure) => failureOfErrorEvent(provider, failure),
  });
}
