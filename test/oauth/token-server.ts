/**
 * A loopback OAuth token endpoint for the R-AP-5 tests: records every refresh-token grant it receives and
 * answers with whatever the test scripted. Binds 127.0.0.1 on port 0 (never a real network address).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface TokenRequest {
  grantType: string | null;
  refreshToken: string | null;
  clientId: string | null;
}

export type TokenReply =
  | { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number }
  /** Never answers: the refresh must time out on the client side. */
  | { hang: true };

export type TokenHandler = (request: TokenRequest, index: number) => TokenReply;

export interface TokenServer {
  url: string;
  requests: TokenRequest[];
  /** Resolves once `count` requests have arrived. */
  waitForRequests(count: number): Promise<void>;
  close(): Promise<void>;
}

/** A standard successful grant; `refresh` omitted = the endpoint does not rotate refresh tokens. */
export function grant(access: string, options: { refresh?: string; expiresIn?: number; delayMs?: number } = {}): TokenReply {
  return {
    status: 200,
    body: {
      access_token: access,
      token_type: "Bearer",
      expires_in: options.expiresIn ?? 3600,
      ...(options.refresh ? { refresh_token: options.refresh } : {}),
    },
    ...(options.delayMs !== undefined ? { delayMs: options.delayMs } : {}),
  };
}

export function oauthError(status: number, error: string, description?: string): TokenReply {
  return { status, body: { error, ...(description ? { error_description: description } : {}) } };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function send(response: ServerResponse, reply: Exclude<TokenReply, { hang: true }>): void {
  const body = reply.body === undefined ? "" : typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
  response.writeHead(reply.status, {
    "content-type": typeof reply.body === "string" ? "text/html" : "application/json",
    "cache-control": "no-store",
    ...reply.headers,
  });
  response.end(body);
}

export async function startTokenServer(handler: TokenHandler): Promise<TokenServer> {
  const requests: TokenRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((request, response) => {
    void readBody(request).then((raw) => {
      const form = new URLSearchParams(raw);
      const received: TokenRequest = {
        grantType: form.get("grant_type"),
        refreshToken: form.get("refresh_token"),
        clientId: form.get("client_id"),
      };
      requests.push(received);
      for (const waiter of waiters.filter((entry) => requests.length >= entry.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const reply = handler(received, requests.length - 1);
      if ("hang" in reply) return;
      if (reply.delayMs) setTimeout(() => send(response, reply), reply.delayMs);
      else send(response, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/oauth/token`,
    requests,
    waitForRequests: (count) => (requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
