/**
 * R-EC-6 / R-CD-6 over real sockets with the official `openai` client: a usage-limit reset stated in a JSON
 * error body, in an SSE `error` event after the stream opened, or in ChatGPT/Codex `x-codex-*` headers
 * blocks the profile until exactly that moment, as a header-stated reset does; the run answers from the
 * fallback meanwhile.
 */
import { createServer, type OutgoingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { profileStats, startHarness, type Harness } from "./fixtures/gateway-harness.js";

interface Reply {
  status: number;
  headers?: OutgoingHttpHeaders;
  /** A JSON body, or SSE events written one per chunk after a 200. */
  body?: string;
  events?: string[];
}

let harness: Harness | undefined;
let upstream: { url: string; close(): Promise<void> } | undefined;
afterEach(async () => {
  await harness?.close();
  await upstream?.close();
  harness = undefined;
  upstream = undefined;
});

async function startUpstream(reply: Reply): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      if (reply.events) {
        response.writeHead(200, { "content-type": "text/event-stream", ...reply.headers });
        for (const event of reply.events) response.write(event);
        response.end();
        return;
      }
      response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers }).end(reply.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function blockedUntil(h: Harness, id: string): Promise<number | undefined> {
  return (await profileStats(h, id))?.blockedUntil;
}

/** Whole seconds two hours ahead: a stated reset within R-CD-6's 7-day cap. */
function resetEpochSeconds(): number {
  return Math.floor(Date.now() / 1000) + 2 * 3600;
}

async function runAgainst(reply: Reply, stream: boolean): Promise<Harness> {
  upstream = await startUpstream(reply);
  harness = await startHarness({ baseUrls: { openai: `${upstream.url}/v1` } });
  const request = { model: "detour", messages: [{ role: "user" as const, content: "hello" }] };
  if (stream) {
    let text = "";
    for await (const chunk of await harness.openai.chat.completions.create({ ...request, stream: true }))
      text += chunk.choices[0]?.delta.content ?? "";
    expect(text.length).toBeGreaterThan(0);
  } else {
    const answer = await harness.openai.chat.completions.create(request);
    expect(answer.choices[0]?.message.content?.length).toBeGreaterThan(0);
  }
  return harness;
}

describe("R-EC-6 resets stated in bodies, streams and Codex headers", () => {
  it("R-EC-6: a 429 body's resets_at sets blockedUntil exactly, as a header would", async () => {
    const resetsAt = resetEpochSeconds();
    const body = JSON.stringify({
      error: { type: "usage_limit_reached", message: "The usage limit has been reached", plan_type: "plus", resets_at: resetsAt },
    });
    const h = await runAgainst({ status: 429, body }, false);
    expect(await blockedUntil(h, "openai:a")).toBe(resetsAt * 1000);
    expect(await blockedUntil(h, "openai:b")).toBe(resetsAt * 1000);
  });

  it("R-EC-6: a 429 body whose text says 'try again at <date>' sets blockedUntil exactly", async () => {
    const resetsAt = resetEpochSeconds();
    const at = new Date(resetsAt * 1000).toISOString();
    const body = JSON.stringify({ error: { type: "usage_limit_reached", message: `You've hit your usage limit. Try again at ${at}.` } });
    const h = await runAgainst({ status: 429, body }, false);
    expect(await blockedUntil(h, "openai:a")).toBe(resetsAt * 1000);
  });

  it("R-EC-6: an SSE error event after the stream opened states resets_at: blockedUntil is exactly that moment", async () => {
    const resetsAt = resetEpochSeconds();
    const error = { error: { message: "The usage limit has been reached", type: "usage_limit_reached", code: 429, resets_at: resetsAt } };
    const h = await runAgainst({ status: 200, events: [`data: ${JSON.stringify(error)}\n\n`] }, true);
    expect(await blockedUntil(h, "openai:a")).toBe(resetsAt * 1000);
  });

  it("R-EC-6: Codex x-codex-primary-reset-at on a spent window sets blockedUntil exactly", async () => {
    const resetsAt = resetEpochSeconds();
    const headers = {
      "x-codex-primary-used-percent": "100",
      "x-codex-primary-window-minutes": "300",
      "x-codex-primary-reset-at": String(resetsAt),
      "x-codex-secondary-used-percent": "40",
      "x-codex-secondary-window-minutes": "10080",
      "x-codex-secondary-reset-at": String(resetsAt + 5 * 86_400),
    };
    const h = await runAgainst(
      { status: 429, headers, body: JSON.stringify({ error: { message: "Too many requests", type: "rate_limit_error" } }) },
      false,
    );
    expect(await blockedUntil(h, "openai:a")).toBe(resetsAt * 1000);
  });
});
