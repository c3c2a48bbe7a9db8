/**
 * An upstream's answer sent to the client as its bytes: the headers a client may rely on (request ids, rate-limit
 * figures) forwarded, JSON as the default content type, and Detour's own headers on top.
 */
import type { FastifyReply } from "fastify";
import { FORWARDED_RESPONSE_HEADERS } from "../../engine/index.js";

export function sendUpstreamAnswer(
  reply: FastifyReply,
  answer: { status: number; headers: Readonly<Record<string, string | string[] | undefined>>; body: Buffer },
  detourHeaders: Record<string, string>,
): FastifyReply {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_RESPONSE_HEADERS) {
    const value = answer.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  headers["content-type"] ??= "application/json";
  return reply
    .code(answer.status)
    .headers({ ...headers, ...detourHeaders })
    .send(answer.body);
}
