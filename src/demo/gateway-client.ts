/**
 * The demo's client: plain HTTP against the gateway, exactly what any OpenAI-compatible client sends
 * (`POST /v1/chat/completions` with an `x-detour-session` header), plus `GET /status` for the live profile
 * view. It owns its connection pool so the demo can close every socket it opened when it ends.
 */
import { Agent, request } from "undici";
import { decodeNoticeHeader } from "../core/notices.js";
import type { UsageStats } from "../core/types.js";

export interface ChatReply {
  status: number;
  /** `x-detour-model`: the model that actually answered. */
  model?: string;
  /** `x-detour-attempts`: failed or skipped attempts plus the one that answered. */
  attempts?: number;
  /** `x-detour-notice`, decoded (R-NT-2). */
  notice?: string;
  /** The assistant text, or the gateway's error message. */
  text: string;
}

export interface StatusProfile {
  id: string;
  provider: string | null;
  usableNow: boolean;
  unusableUntil?: number;
  unusableReason?: string;
  usageStats: UsageStats;
  /** The tightest fresh rate-limit window, when the provider reports one. */
  headroom?: StatusHeadroom;
}

export interface StatusHeadroom {
  remainingShare: number | null;
  window: string;
  resetAt: number;
  nearlySpent: boolean;
}

export interface GatewayStatus {
  now: number;
  profiles: StatusProfile[];
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function assistantText(body: unknown): string {
  const payload = body as { choices?: { message?: { content?: unknown } }[]; error?: { message?: unknown } } | null;
  const content = payload?.choices?.[0]?.message?.content;
  if (typeof content === "string") return content;
  const message = payload?.error?.message;
  return typeof message === "string" ? message : "";
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export class GatewayClient {
  readonly #baseUrl: string;
  /** Room for the fan-out step's sub-agents, all in flight at once. */
  readonly #agent = new Agent({ connections: 16 });

  constructor(baseUrl: string) {
    this.#baseUrl = baseUrl;
  }

  async chat(input: { sessionKey: string; model: string; message: string; signal?: AbortSignal }): Promise<ChatReply> {
    const response = await request(`${this.#baseUrl}/v1/chat/completions`, {
      method: "POST",
      dispatcher: this.#agent,
      headers: { "content-type": "application/json", "x-detour-session": input.sessionKey },
      body: JSON.stringify({ model: input.model, messages: [{ role: "user", content: input.message }] }),
      ...(input.signal ? { signal: input.signal } : {}),
    });
    const body: unknown = await response.body.json().catch(() => null);
    const model = header(response.headers, "x-detour-model");
    const attempts = Number(header(response.headers, "x-detour-attempts"));
    const notice = header(response.headers, "x-detour-notice");
    return {
      status: response.statusCode,
      ...(model !== undefined ? { model } : {}),
      ...(Number.isInteger(attempts) ? { attempts } : {}),
      ...(notice !== undefined ? { notice: decodeNoticeHeader(notice) } : {}),
      text: assistantText(body),
    };
  }

  /**
   * The same turn streamed: the assistant text is what the stream delivered; a stream that ended with an
   * error chunk instead of `[DONE]` reports that error's message as `streamError`.
   */
  async chatStream(input: {
    sessionKey: string;
    model: string;
    message: string;
    signal?: AbortSignal;
  }): Promise<ChatReply & { streamError?: string }> {
    const response = await request(`${this.#baseUrl}/v1/chat/completions`, {
      method: "POST",
      dispatcher: this.#agent,
      headers: { "content-type": "application/json", "x-detour-session": input.sessionKey },
      body: JSON.stringify({ model: input.model, stream: true, messages: [{ role: "user", content: input.message }] }),
      ...(input.signal ? { signal: input.signal } : {}),
    });
    const body = await response.body.text();
    const model = header(response.headers, "x-detour-model");
    const attempts = Number(header(response.headers, "x-detour-attempts"));
    const notice = header(response.headers, "x-detour-notice");
    let text = "";
    let streamError: string | undefined;
    if (response.statusCode !== 200) {
      text = assistantText(safeJson(body));
    } else {
      for (const line of body.split("\n")) {
        if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
        const chunk = safeJson(line.slice(6)) as { choices?: { delta?: { content?: unknown } }[]; error?: { message?: unknown } } | null;
        const content = chunk?.choices?.[0]?.delta?.content;
        if (typeof content === "string") text += content;
        if (typeof chunk?.error?.message === "string") streamError = chunk.error.message;
      }
    }
    return {
      status: response.statusCode,
      ...(model !== undefined ? { model } : {}),
      ...(Number.isInteger(attempts) ? { attempts } : {}),
      ...(notice !== undefined ? { notice: decodeNoticeHeader(notice) } : {}),
      text,
      ...(streamError !== undefined ? { streamError } : {}),
    };
  }

  async status(signal?: AbortSignal): Promise<GatewayStatus> {
    const response = await request(`${this.#baseUrl}/status`, { dispatcher: this.#agent, ...(signal ? { signal } : {}) });
    const body = (await response.body.json()) as GatewayStatus;
    if (response.statusCode !== 200) throw new Error(`GET /status answered ${response.statusCode}.`);
    return body;
  }

  /** Closes every pooled connection (the demo leaves no socket behind). */
  close(): Promise<void> {
    return this.#agent.destroy();
  }
}
