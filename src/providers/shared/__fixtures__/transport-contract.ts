/**
 * Transport behaviour every provider must share, run against a real loopback server: aborts reach the
 * upstream socket, cuts and resets become network failures, provider-stated waits are never slept on
 * (R-RA-1), and one non-streamed attempt is bounded by `timeoutSeconds`.
 */
import { describe, expect, it } from "vitest";
import type { Credential } from "../../../core/types.js";
import type { CanonicalStreamEvent } from "../../../ports/canonical.js";
import { UpstreamFailure, type Provider } from "../../../ports/provider.js";
import type { ProviderSettings } from "../provider-settings.js";
import { simpleRequest } from "./canonical-requests.js";
import { startLoopbackServer, type LoopbackReply } from "./loopback-server.js";

export interface TransportContractSubject {
  name: string;
  create(baseUrl: string, extra?: Partial<ProviderSettings>): Provider;
  model: string;
  credential?: Credential;
  /** Content type of this provider's stream responses. */
  streamContentType: string;
  /** A well-formed stream that delivers some content and then stops without a finish reason. */
  unfinishedStream: string;
  /** A complete stream; the cut test sends half of it. */
  completeStream: string;
  /** An error body in this provider's format, served with status 429. */
  rateLimitBody: unknown;
}

async function collect(events: AsyncIterable<CanonicalStreamEvent>): Promise<CanonicalStreamEvent[]> {
  const seen: CanonicalStreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms)),
  ]);
}

async function failureOf(promise: Promise<unknown>): Promise<UpstreamFailure> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UpstreamFailure);
  return error as UpstreamFailure;
}

export function describeTransportContract(subject: TransportContractSubject): void {
  describe(`${subject.name} transport`, () => {
    async function withServer<T>(
      reply: LoopbackReply,
      run: (baseUrl: string, requests: { closed: Promise<void> }[]) => Promise<T>,
    ): Promise<T> {
      const server = await startLoopbackServer(() => reply);
      try {
        return await run(server.url, server.requests);
      } finally {
        await server.close();
      }
    }

    const context = (signal: AbortSignal) => ({ model: subject.model, credential: subject.credential, signal });

    it("aborting the caller's signal mid-stream closes the upstream connection at once (R-EC-7)", async () => {
      await withServer(
        { kind: "stream", contentType: subject.streamContentType, text: subject.unfinishedStream, holdOpen: true },
        async (baseUrl, requests) => {
          const controller = new AbortController();
          const iterator = subject.create(baseUrl).stream(simpleRequest, context(controller.signal))[Symbol.asyncIterator]();
          const first = await iterator.next();
          expect(first.done).toBe(false);
          controller.abort();
          await expect(within(drain(iterator), 2_000, "abort")).rejects.toMatchObject({ name: "AbortError" });
          await within(requests[0]!.closed, 2_000, "upstream socket close");
        },
      );
    });

    it("aborting before response headers closes the upstream connection and is not an UpstreamFailure", async () => {
      await withServer({ kind: "hang" }, async (baseUrl, requests) => {
        const controller = new AbortController();
        const pending = subject.create(baseUrl).complete(simpleRequest, context(controller.signal));
        await within(
          waitFor(() => requests.length === 1),
          2_000,
          "request arrival",
        );
        controller.abort();
        const error: unknown = await pending.catch((caught: unknown) => caught);
        expect(error).not.toBeInstanceOf(UpstreamFailure);
        expect(error).toMatchObject({ name: "AbortError" });
        await within(requests[0]!.closed, 2_000, "upstream socket close");
      });
    });

    it("a connection cut mid-stream throws an UpstreamFailure with a network code", async () => {
      const cutAfterBytes = Math.floor(new TextEncoder().encode(subject.completeStream).byteLength / 2);
      await withServer(
        { kind: "stream", contentType: subject.streamContentType, text: subject.completeStream, cutAfterBytes },
        async (baseUrl) => {
          const failure = await failureOf(collect(subject.create(baseUrl).stream(simpleRequest, context(new AbortController().signal))));
          expect(failure.failure.code).toBe("ECONNRESET");
          expect(failure.failure.message).toMatch(/stream closed/);
          expect(failure.failure.provider).toBe(subject.name);
        },
      );
    });

    it("a stream that ends cleanly without a finish reason is incomplete: 'stream closed' (R-ST-2)", async () => {
      await withServer({ kind: "stream", contentType: subject.streamContentType, text: subject.unfinishedStream }, async (baseUrl) => {
        const failure = await failureOf(collect(subject.create(baseUrl).stream(simpleRequest, context(new AbortController().signal))));
        expect(failure.failure.message).toMatch(/stream closed/);
      });
    });

    it("a connection reset before headers is a network failure", async () => {
      await withServer({ kind: "reset" }, async (baseUrl) => {
        const failure = await failureOf(subject.create(baseUrl).complete(simpleRequest, context(new AbortController().signal)));
        expect(failure.failure.code).toMatch(/^(ECONNRESET|UND_ERR_)/);
      });
    });

    it("a refused connection is ECONNREFUSED", async () => {
      const server = await startLoopbackServer(() => ({ kind: "hang" }));
      const baseUrl = server.url;
      await server.close();
      const failure = await failureOf(subject.create(baseUrl).complete(simpleRequest, context(new AbortController().signal)));
      expect(failure.failure.code).toBe("ECONNREFUSED");
    });

    it("R-RA-1: a 429 with a long Retry-After surfaces at once — one request, no sleep, hint kept", async () => {
      await withServer(
        { kind: "json", status: 429, headers: { "retry-after": "30" }, body: subject.rateLimitBody },
        async (baseUrl, requests) => {
          const started = performance.now();
          const failure = await failureOf(subject.create(baseUrl).complete(simpleRequest, context(new AbortController().signal)));
          expect(performance.now() - started).toBeLessThan(2_000);
          expect(requests).toHaveLength(1);
          expect(failure.failure.status).toBe(429);
          expect(failure.failure.headers?.["retry-after"]).toBe("30");
          expect(failure.failure.message).not.toBe("");
        },
      );
    });

    it("R-RA-1: a streamed 429 surfaces before any event, with one request", async () => {
      await withServer(
        { kind: "json", status: 429, headers: { "retry-after": "30" }, body: subject.rateLimitBody },
        async (baseUrl, requests) => {
          const failure = await failureOf(collect(subject.create(baseUrl).stream(simpleRequest, context(new AbortController().signal))));
          expect(failure.failure.status).toBe(429);
          expect(requests).toHaveLength(1);
        },
      );
    });

    it("one non-streamed attempt is bounded by timeoutSeconds: a watchdog timeout, not an abort", async () => {
      await withServer({ kind: "hang" }, async (baseUrl) => {
        const provider = subject.create(baseUrl, { timeoutSeconds: 0.3 });
        const failure = await failureOf(within(provider.complete(simpleRequest, context(new AbortController().signal)), 3_000, "deadline"));
        expect(failure.failure.code).toBe("ETIMEDOUT");
        expect(failure.failure.aborted).toBeUndefined();
      });
    });

    it("an HTML 502 page keeps its status and text for the classifier", async () => {
      const page = "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>";
      await withServer({ kind: "text", status: 502, headers: { "content-type": "text/html" }, text: page }, async (baseUrl) => {
        const failure = await failureOf(subject.create(baseUrl).complete(simpleRequest, context(new AbortController().signal)));
        expect(failure.failure.status).toBe(502);
        expect(failure.failure.message).toContain("502 Bad Gateway");
      });
    });
  });
}

async function drain(iterator: AsyncIterator<unknown>): Promise<void> {
  for (;;) {
    const step = await iterator.next();
    if (step.done) return;
  }
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
