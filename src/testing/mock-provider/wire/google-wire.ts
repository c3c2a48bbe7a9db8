/**
 * Google Gemini (`POST /v1beta/models/<model>:generateContent` and `:streamGenerateContent?alt=sse`), on
 * the format's own server codecs: JSON answers and SSE chunks (no terminator: the chunk with the finish
 * reason is the last), errors as google.rpc.Status.
 */
import { googleGenerativeAiWire } from "../../../wire/google-generative-ai/index.js";
import { codecWire } from "./codec-wire.js";

export const googleWire = codecWire({
  api: "google",
  format: googleGenerativeAiWire,
  streamContentType: "text/event-stream",
  checkRoute: (route) =>
    route.streamFromPath === true && route.searchParams.get("alt") !== "sse"
      ? "The mock provider streams only with ?alt=sse (server-sent events)."
      : undefined,
});
