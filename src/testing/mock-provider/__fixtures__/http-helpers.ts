/** Small loopback HTTP helpers for the mock provider's own tests. */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { MockKeyedWireApi } from "../scenario-schema.js";

export function post(
  baseUrl: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** Reads the whole body as text; if the connection breaks, returns what arrived and the error. */
export async function readAll(response: Response): Promise<{ text: string; error?: unknown }> {
  const reader = response.body?.getReader();
  if (!reader) return { text: "" };
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { text };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error };
  }
}

/** Reads until `predicate(textSoFar)` holds, then returns without finishing the body. */
export async function readUntil(response: Response, predicate: (text: string) => boolean): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const decoder = new TextDecoder();
  let text = "";
  while (!predicate(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

export function parseSse(text: string): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  parser.feed(text);
  return events;
}

/** Parses each SSE data payload, keeping unparseable ones as `{ malformed: raw }`. */
export function sseJson(text: string): unknown[] {
  return parseSse(text).map((event) => {
    if (event.data === "[DONE]") return "[DONE]";
    try {
      return JSON.parse(event.data) as unknown;
    } catch {
      return { malformed: event.data };
    }
  });
}

export function ndjson(text: string): unknown[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        return { malformed: line };
      }
    });
}

/** A request body per wire format, asking `prompt`, optionally offering one tool. */
export function chatBody(
  api: MockKeyedWireApi,
  options: { model: string; prompt: string; stream?: boolean; tool?: boolean },
): { path: string; body: Record<string, unknown> } {
  const parameters = { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } } };
  switch (api) {
    case "openai":
      return {
        path: "/v1/chat/completions",
        body: {
          model: options.model,
          messages: [{ role: "user", content: options.prompt }],
          ...(options.stream ? { stream: true, stream_options: { include_usage: true } } : {}),
          ...(options.tool ? { tools: [{ type: "function", function: { name: "get_weather", parameters } }] } : {}),
        },
      };
    case "openai-responses":
      return {
        path: "/v1/responses",
        body: {
          model: options.model,
          input: options.prompt,
          ...(options.stream ? { stream: true } : {}),
          ...(options.tool ? { tools: [{ type: "function", name: "get_weather", parameters }] } : {}),
        },
      };
    case "anthropic":
      return {
        path: "/v1/messages",
        body: {
          model: options.model,
          max_tokens: 100,
          messages: [{ role: "user", content: options.prompt }],
          ...(options.stream ? { stream: true } : {}),
          ...(options.tool ? { tools: [{ name: "get_weather", input_schema: parameters }] } : {}),
        },
      };
    case "google":
      return {
        path: `/v1beta/models/${options.model}:${options.stream ? "streamGenerateContent?alt=sse" : "generateContent"}`,
        body: {
          contents: [{ role: "user", parts: [{ text: options.prompt }] }],
          ...(options.tool ? { tools: [{ functionDeclarations: [{ name: "get_weather", parameters }] }] } : {}),
        },
      };
    case "ollama":
      return {
        path: "/api/chat",
        body: {
          model: options.model,
          messages: [{ role: "user", content: options.prompt }],
          stream: options.stream === true,
          ...(options.tool ? { tools: [{ type: "function", function: { name: "get_weather", parameters } }] } : {}),
        },
      };
  }
}

/** Auth headers as each provider's client sends them. */
export function authHeaders(api: MockKeyedWireApi, key: string): Record<string, string> {
  switch (api) {
    case "anthropic":
      return { "x-api-key": key, "anthropic-version": "2023-06-01" };
    case "google":
      return { "x-goog-api-key": key };
    default:
      return { authorization: `Bearer ${key}` };
  }
}

type Json = Record<string, any>;

/** The answer text of a JSON (non-streamed) answer. */
export function jsonText(api: MockKeyedWireApi, body: Json): string {
  switch (api) {
    case "openai":
      return body.choices[0].message.content;
    case "openai-responses":
      return body.output[0].content[0].text;
    case "anthropic":
      return body.content[0].text;
    case "google":
      return body.candidates[0].content.parts[0].text;
    case "ollama":
      return body.message.content;
  }
}

/** The text carried by the content frames of a stream (malformed frames contribute nothing). */
export function streamText(api: MockKeyedWireApi, text: string): string {
  if (api === "ollama") return (ndjson(text) as Json[]).map((line) => line.message?.content ?? "").join("");
  const events = sseJson(text) as Json[];
  switch (api) {
    case "openai":
      return events.map((event) => event.choices?.[0]?.delta?.content ?? "").join("");
    case "openai-responses":
      return events.map((event) => (event.type === "response.output_text.delta" ? event.delta : "")).join("");
    case "anthropic":
      return events.map((event) => (event.delta?.type === "text_delta" ? event.delta.text : "")).join("");
    case "google":
      return events.map((event) => event.candidates?.[0]?.content?.parts?.[0]?.text ?? "").join("");
  }
}

/** The stream's frames, parsed (SSE data payloads or NDJSON lines). */
export function streamFrames(api: MockKeyedWireApi, text: string): unknown[] {
  return api === "ollama" ? ndjson(text) : sseJson(text);
}
