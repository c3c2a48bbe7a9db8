/**
 * The floor of an assembled answer (SPEC R-ST-6): what the least a Node proxy must do when, like Detour, it
 * streams a non-streamed request upstream to watch for silence and hands the client one JSON body — read
 * the client's body, add `"stream":true`, read the upstream's events, parse each and join the text. No
 * routing, no logging, no usage details, no other fields: a lower bound, not a product. The gateway's
 * non-streamed figures are compared with it as well as with the plain pipe (bench/floor-proxy.child.ts),
 * which does not watch for silence at all. Usage: floor-assembled.child.ts <upstream-url>.
 */
import { createServer } from "node:http";
import { serveChild } from "./serve-child.js";
import { Agent, request } from "undici";

const upstream = process.argv[2] as string;
const agent = new Agent({ keepAliveTimeout: 30_000, headersTimeout: 120_000, bodyTimeout: 120_000 });

interface Chunk {
  id?: string;
  model?: string;
  created?: number;
  usage?: unknown;
  choices?: { delta?: { content?: string }; finish_reason?: string | null }[];
}

const server = createServer((incoming, outgoing) => {
  const parts: Buffer[] = [];
  incoming.on("data", (part: Buffer) => parts.push(part));
  incoming.on("end", () => {
    const sent = Buffer.concat(parts);
    const brace = sent.indexOf(0x7b);
    const body = Buffer.concat([sent.subarray(0, brace + 1), Buffer.from('"stream":true,'), sent.subarray(brace + 1)]);
    request(`${upstream}/v1/chat/completions`, {
      method: "POST",
      dispatcher: agent,
      headers: { "content-type": "application/json", authorization: "Bearer sk-floor" },
      body,
    }).then(
      async (answer) => {
        let text = "";
        let rest = "";
        let last: Chunk = {};
        let usage: unknown;
        let finish: string | null = null;
        for await (const read of answer.body) {
          rest += (read as Buffer).toString("utf8");
          for (let end = rest.indexOf("\n\n"); end !== -1; end = rest.indexOf("\n\n")) {
            const data = rest.slice(6, end);
            rest = rest.slice(end + 2);
            if (data === "[DONE]") continue;
            const chunk = JSON.parse(data) as Chunk;
            last = chunk;
            if (chunk.usage) usage = chunk.usage;
            const choice = chunk.choices?.[0];
            if (choice?.delta?.content) text += choice.delta.content;
            if (choice?.finish_reason) finish = choice.finish_reason;
          }
        }
        const json = {
          id: last.id,
          object: "chat.completion",
          created: last.created,
          model: last.model,
          choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: finish }],
          usage,
        };
        outgoing.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(json));
      },
      () => {
        outgoing.writeHead(502).end();
      },
    );
  });
});
serveChild(server);
