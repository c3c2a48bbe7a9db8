/**
 * Reads one upstream stream the two ways a provider offers (SPEC R-ST-2, R-ST-6): pulled (`stream`, what the
 * commit point reads) and pushed (`pushStream`, what an assembled answer reads), for tests that both hand on
 * the same events, skip the same chunks and fail the same way.
 */
import { expect } from "vitest";
import type { CanonicalRequest, CanonicalStreamEvent } from "../../../ports/canonical.js";
import { UpstreamFailure, type MalformedChunk, type ProviderCallContext } from "../../../ports/provider.js";
import { simpleRequest } from "./canonical-requests.js";

export interface Reading {
  events: CanonicalStreamEvent[];
  /** The problems of the chunks the provider skipped. */
  malformed: string[];
  error?: unknown;
}

export interface TwoWayStreamer {
  stream(request: CanonicalRequest, context: ProviderCallContext): AsyncIterable<CanonicalStreamEvent>;
  pushStream(request: CanonicalRequest, context: ProviderCallContext, push: (event: CanonicalStreamEvent) => boolean): Promise<void>;
}

export function streamReadings(
  provider: (baseUrl: string) => TwoWayStreamer,
  context: (onMalformedChunk: (chunk: MalformedChunk) => void) => ProviderCallContext,
) {
  async function pulled(baseUrl: string, request: CanonicalRequest = simpleRequest): Promise<Reading> {
    const reading: Reading = { events: [], malformed: [] };
    try {
      for await (const event of provider(baseUrl).stream(
        request,
        context((chunk) => reading.malformed.push(chunk.problem)),
      ))
        reading.events.push(event);
    } catch (error) {
      reading.error = error;
    }
    return reading;
  }

  async function pushed(baseUrl: string, request: CanonicalRequest = simpleRequest): Promise<Reading> {
    const reading: Reading = { events: [], malformed: [] };
    try {
      await provider(baseUrl).pushStream(
        request,
        context((chunk) => reading.malformed.push(chunk.problem)),
        (event) => {
          reading.events.push(event);
          return event.type !== "finish";
        },
      );
    } catch (error) {
      reading.error = error;
    }
    return reading;
  }

  return { pulled, pushed };
}

/** The failure without the response headers: two calls' `date` headers may differ by a second. */
function failureOf(error: unknown): unknown {
  if (!(error instanceof UpstreamFailure)) return error;
  const { headers: _headers, ...failure } = error.failure;
  return failure;
}

/** Both readings hand on the same events, skip the same chunks and end with the same failure (or none). */
export function expectSameReadings(pull: Reading, push: Reading): void {
  expect(push.events).toEqual(pull.events);
  expect(push.malformed).toEqual(pull.malformed);
  expect(failureOf(push.error)).toEqual(failureOf(pull.error));
  expect(pull.events.length).toBeGreaterThan(0);
}
