/**
 * A streamed run whose outcome is the stream's (SPEC R-ST-4, R-ST-5), shared by both lanes. Every attempt
 * commits through `context.commit()` and stays pending while its segment is read, so the runner records the
 * success, the decision and `run_finished` when the client's stream ends. A committed attempt that fails is
 * recorded on its profile by the runner, which then calls the attempt function again as a continuation (on
 * another profile of the model, else the next candidate) until the budget is spent.
 *
 * Resolves at the first commit with the outcome the headers need and the client's stream; a failure before
 * any commit rejects like a non-streamed run.
 */
import type { AttemptContext, RunOutcome } from "../runner/attempt.js";
import type { RunWithOptions } from "./run-with.js";
import { CONSUMER_STOPPED, StreamRelay, type StreamSegment } from "./stream-relay.js";
import type { DeliveredAnswer } from "../wire/shared/sse-bytes.js";

export interface ContinuedRunOptions<Out, First> {
  runWith: <T>(options: RunWithOptions<T>) => Promise<RunOutcome<T>>;
  run: Omit<RunWithOptions<void>, "attempt" | "continuations">;
  /** `gateway.streamContinuations`. */
  maxContinuations: number;
  /** Opens and commits the first answer of an ordinary attempt (R-ST-1); throws before the commit to fail over. */
  first(context: AttemptContext): Promise<{ segment: StreamSegment<Out>; info: First }>;
  /** Opens and commits a continuation of what the client holds (R-ST-4). */
  continuation(context: AttemptContext, delivered: DeliveredAnswer): Promise<StreamSegment<Out>>;
  /** Turns a failure before the commit into what front ends see. */
  normalizeError(error: unknown, lastAttempt: AttemptContext | undefined): unknown;
}

export interface ContinuedStream<Out, First> {
  /** The client's stream: the first answer and any continuations; throws R-ST-2's failure when not rescued. */
  output: AsyncIterable<Out>;
  first: First;
  /** Stops the upstream call (the client is gone). */
  abort(reason?: unknown): void;
}

export function runContinuedStream<Out, First>(options: ContinuedRunOptions<Out, First>): Promise<RunOutcome<ContinuedStream<Out, First>>> {
  const relay = new StreamRelay<Out>();
  let lastAttempt: AttemptContext | undefined;
  let committed = false;
  return new Promise((resolve, reject) => {
    const run = options.runWith<void>({
      ...options.run,
      continuations: { max: options.maxContinuations, canContinue: () => relay.continuable },
      attempt: async (context) => {
        lastAttempt = context;
        if (context.continuation !== undefined && committed) {
          const segment = await options.continuation(context, relay.delivered());
          await context.commit();
          await played(relay.play(segment), options.run.signal);
          return reportRefusal(segment, context);
        }
        const opened = await options.first(context);
        let head: Awaited<ReturnType<typeof context.commit>>;
        try {
          head = await context.commit();
        } catch (error) {
          // Refused (R-HG-1: another attempt of the run answered first): its stream never reaches the client.
          opened.segment.abort(error);
          throw error;
        }
        committed = true;
        const stream: ContinuedStream<Out, First> = {
          output: relay.output(),
          first: opened.info,
          abort: (reason) => relay.abort(reason),
        };
        resolve({ ...head, result: stream });
        await played(relay.play(opened.segment), options.run.signal);
        return reportRefusal(opened.segment, context);
      },
    });
    run.then(
      () => relay.end(),
      (error: unknown) => {
        if (committed) relay.end(error);
        else reject(options.normalizeError(error, lastAttempt));
      },
    );
  });
}

/** R-GW-11: a stream that ended in a refusal reached the client as sent; the run counts it as content_filter. */
function reportRefusal<Out>(segment: StreamSegment<Out>, context: AttemptContext): void {
  if (segment.refused?.()) context.refused?.();
}

/**
 * A consumer that stopped reading is not the upstream's failure (R-EC-7): when the client went away the run
 * ends as aborted (its signal fires on the socket's close, a moment after the write loop saw it), and a
 * consumer that merely stopped early leaves an upstream that did nothing wrong.
 */
async function played(playing: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  try {
    await playing;
  } catch (error) {
    if (error !== CONSUMER_STOPPED) throw error;
    await new Promise((resolve) => setImmediate(resolve));
    if (signal?.aborted) throw signal.reason;
  }
}
