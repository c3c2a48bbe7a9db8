/**
 * The streaming commit point of the same-wire lane (SPEC R-ST-1…R-ST-3 on bytes, R-GW-6): the upstream's
 * reads are scanned, not translated. Until the scanner sees the first content every read is held and every
 * failure (an error status, an in-band error event, no first token in time, a stall, a cut) is thrown so the
 * runner fails over; after it each upstream read becomes one buffer for one client write. Watchdogs sleep on
 * the injected Clock through the same DeadlinePuller as the canonical commit point.
 */
import type { Clock } from "../ports/clock.js";
import type { RawStreamScanner } from "../wire/shared/sse-bytes.js";
import { beforeFirstTokenTimeout, cutFailure, DeadlinePuller, StreamCallScope, stallTimeout } from "./stream-commit.js";

export interface RawStreamCommitOptions {
  /** Opens the upstream call with the signal the commit point controls and yields its body reads. */
  open: (signal: AbortSignal) => AsyncIterable<Buffer>;
  scanner: RawStreamScanner;
  /** Turns an in-band error event's payload into the classifier's input. */
  failureOf: (error: unknown) => Error;
  clock: Clock;
  ttftTimeoutMs: number;
  stallTimeoutMs: number;
  /** Obeyed only until the commit (the runner's watchdog must not cut a live stream). */
  attemptSignal?: AbortSignal;
  /** The client's own signal: obeyed for the whole stream. */
  callerSignal?: AbortSignal;
  provider: string;
  model: string;
}

export interface CommittedRawStream {
  /** The held reads up to and including the first content, as one buffer. */
  head: Buffer;
  /** One buffer per later upstream read; throws on an error event, stall or cut (R-ST-2). */
  rest: AsyncIterable<Buffer>;
  scanner: RawStreamScanner;
  timeToFirstTokenMs: number;
  abort(reason?: unknown): void;
}

export async function commitRawStream(options: RawStreamCommitOptions): Promise<CommittedRawStream> {
  const { clock, provider, model, scanner } = options;
  const scope = new StreamCallScope(options);
  const startedAt = clock.now();
  const ttftDeadline = startedAt + options.ttftTimeoutMs;
  // Built once per stream; each makes its watchdog's failure only when that watchdog fires.
  const noFirstToken = () => beforeFirstTokenTimeout(provider, model, options);
  const stalled = () => stallTimeout(provider, model, options.stallTimeoutMs);
  const held: Buffer[] = [];
  let iterator: AsyncIterator<Buffer> | undefined;
  let puller: DeadlinePuller<Buffer> | undefined;

  try {
    iterator = options.open(scope.signal)[Symbol.asyncIterator]();
    puller = new DeadlinePuller<Buffer>(iterator, clock, scope.signal);
    for (;;) {
      const result = await scope.next(puller, ttftDeadline - clock.now(), noFirstToken);
      if (result.done) {
        const end = scanner.end();
        if (!end.complete || !scanner.committed) throw cutFailure(provider, model, "stream closed before any content");
        if (end.forward) held.push(end.forward);
        return finishCommit(true);
      }
      const scanned = scanner.push(result.value);
      if (scanned.forward) held.push(scanned.forward);
      if (scanned.failure !== undefined) throw options.failureOf(scanned.failure);
      if (scanner.committed) return finishCommit(scanner.complete);
    }
  } catch (error) {
    scope.releaseCaller();
    scope.releaseAttempt();
    scope.close(puller, iterator);
    throw error;
  }

  function finishCommit(finished: boolean): CommittedRawStream {
    scope.releaseAttempt();
    const pull = puller as DeadlinePuller<Buffer>;
    pull.pause();
    const committedAt = clock.now();
    async function* rest(): AsyncGenerator<Buffer> {
      try {
        while (!finished && !scanner.complete) {
          const result = await scope.next(pull, options.stallTimeoutMs, stalled);
          if (result.done) {
            const end = scanner.end();
            if (!end.complete) throw cutFailure(provider, model, "stream closed before it finished");
            if (end.forward) yield end.forward;
            return;
          }
          const scanned = scanner.push(result.value);
          if (scanned.forward) yield scanned.forward;
          if (scanned.failure !== undefined) throw options.failureOf(scanned.failure);
        }
      } finally {
        scope.releaseCaller();
        // A complete answer is finalised at once (R-ST-2); nothing left upstream is waited for.
        scope.close(pull, iterator);
      }
    }
    const head = held.length === 1 ? (held[0] as Buffer) : Buffer.concat(held);
    return { head, rest: rest(), scanner, timeToFirstTokenMs: committedAt - startedAt, abort: scope.abort };
  }
}
