/** Canonical requests every provider's translation tests send (R-GW-2). */
import type { CanonicalRequest } from "../../../ports/canonical.js";

/** A one-line question: the smallest request every provider must handle. */
export const simpleRequest: CanonicalRequest = {
  messages: [{ role: "user", content: [{ type: "text", text: "Say hello." }] }],
};

/** Everything the canonical model can express: system, images both ways, tools, a full tool round trip. */
export const richRequest: CanonicalRequest = {
  system: "You are terse.",
  messages: [
    {
      role: "user",
      content: [
        { type: "text", text: "What is in these images, and what is the weather there?" },
        { type: "image", source: { kind: "base64", mediaType: "image/png", data: "iVBORw0KGgoAAAANSUhEUg==" } },
        { type: "image", source: { kind: "url", url: "https://example.com/boardwalk.jpg" } },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Let me check the weather." },
        { type: "tool-call", id: "call_1", name: "get_weather", arguments: '{"location":"Paris"}' },
      ],
    },
    { role: "tool", content: [{ type: "tool-result", toolCallId: "call_1", content: "18°C and sunny" }] },
    { role: "user", content: [{ type: "text", text: "Thanks. Summarise." }] },
  ],
  tools: [
    {
      name: "get_weather",
      description: "Current weather for a place",
      parameters: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
    },
  ],
  toolChoice: { name: "get_weather" },
  temperature: 0.2,
  topP: 0.9,
  maxTokens: 256,
  stop: ["END"],
};
