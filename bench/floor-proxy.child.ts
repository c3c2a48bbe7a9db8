/**
 * The floor: the least a Node proxy can do — `node:http` in, undici out, the body piped both ways, the
 * client's credential swapped for the upstream key. No parsing, no routing, no logging. Detour is measured
 * against this in the same harness (bench/floor.bench.ts). Usage: floor-proxy.child.ts <upstream-url>.
 */
import { createServer } from "node:http";
import { serveChild } from "./serve-child.js";
import { Agent, request } from "undici";

const upstream = process.argv[2] as string;
const agent = new Agent({ keepAliveTimeout: 30_000, headersTimeout: 120_000, bodyTimeout: 120_000 });

const server = createServer((incoming, outgoing) => {
  const path = incoming.url?.startsWith("/v1/messages") ? "/v1/messages" : "/v1/chat/completions";
  request(`${upstream}${path}`, {
    method: "POST",
    dispatcher: agent,
    headers: { "content-type": "application/json", authorization: "Bearer sk-floor" },
    body: incoming,
  }).then(
    (answer) => {
      outgoing.writeHead(answer.statusCode, { "content-type": String(answer.headers["content-type"] ?? "application/json") });
      answer.body.pipe(outgoing);
    },
    () => {
      outgoing.writeHead(502).end();
    },
  );
});
serveChild(server);
