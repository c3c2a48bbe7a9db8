/**
 * The fault-injecting mock provider: one loopback HTTP server (node:http) speaking the OpenAI, Anthropic,
 * Google and Ollama wire formats on their real paths, answering each request as the scenario scripts it
 * per key, model and API (R-CL-3). Used by tests, `detour demo` and `detour mock-provider`.
 */
import { setMaxListeners } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { MockProviderPortInUseError } from "./mock-errors.js";
import { MockScenarioError, describeIssues, resolveScenarioName } from "./scenario-file.js";
import {
  mockRuleSchema,
  mockScenarioSchema,
  type MockRule,
  type MockRuleInput,
  type MockScenario,
  type MockScenarioInput,
  type MockWireApi,
} from "./scenario-schema.js";
import { RuleBook } from "./rule-book.js";
import { RequestLog, withoutKeyParameter, withoutSecretHeaders, type MockCounts, type RecordedRequest } from "./request-log.js";
import {
  buildMockReply,
  continuationOf,
  estimateTokens,
  fingerprintKey,
  fixedAnswerReply,
  withThinking,
  type MockConversation,
  type MockReply,
} from "./reply.js";
import { PromptCache } from "./request-features.js";

/** Anthropic's wording for a model that does not support assistant prefill. */
export const PREFILL_REJECTED_MESSAGE =
  "This model does not support assistant message prefill. The conversation must end with a user message.";
import { sendJson, serveStep } from "./serve-step.js";
import { TimerSet } from "./timer-set.js";
import { BudgetBook, type BudgetKeyState } from "./budget-book.js";
import { mockBudgetsSchema, type MockBudgetsInput } from "./budget-schema.js";
import { allowedBudgetHeaders, budgetRejection, scenarioBudgets } from "./budget-step.js";
import { anthropicWire } from "./wire/anthropic-wire.js";
import { anthropicCountTokensWire, ollamaEmbedWire, openAIEmbeddingsWire } from "./wire/embeddings-wires.js";
import { googleWire } from "./wire/google-wire.js";
import type { MockWire, WireRoute } from "./wire/mock-wire.js";
import { ollamaWire } from "./wire/ollama-wire.js";
import { openAIResponsesWire } from "./wire/openai-responses-wire.js";
import { openAIWire } from "./wire/openai-wire.js";
import { azureAccessDenied, routeCloud, type CloudRoute } from "./wire/cloud-wires.js";
import { awsAccessKeyOf, bedrockSignatureRefusal, routeBedrock } from "./wire/bedrock-wire.js";
import { MOCK_TOKEN_PATH, MockTokenEndpoint, VERTEX_UNAUTHENTICATED, type MockTokenGrant } from "./token-endpoint.js";

export type MockScenarioSelection = string | MockScenarioInput | readonly MockRuleInput[];

export interface MockProviderOptions {
  /** Loopback only: 127.0.0.1 (default), ::1 or localhost. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** A built-in or `scenarios` name, a scenario object, or a rule list. Default: `healthy`. */
  scenario?: MockScenarioSelection;
  /** Extra named scenarios (e.g. from a scenario file) that `scenario` / `setScenario` may name. */
  scenarios?: Readonly<Record<string, MockScenario>>;
  /** Model ids listed by `GET /v1/models`, `/v1beta/models` and `/api/tags`. */
  models?: readonly string[];
  /** Pause between stream tokens (default 0). */
  tokenDelayMs?: number;
  /** How many recent requests `requests()` keeps (default 100). */
  recordLimit?: number;
  /** Largest accepted request body (default 10 MiB). */
  maxBodyBytes?: number;
  /** Rate-limit budgets per key (R-PO-7); a scenario's own `budgets` win. See docs/mock-provider.md. */
  budgets?: MockBudgetsInput;
  /** Time for the budget windows (default: the system clock); a FakeClock runs a minute in milliseconds. */
  clock?: { now(): number };
  /** How many prompt prefixes the prompt cache remembers (default 256); the oldest is forgotten first. */
  promptCacheSize?: number;
  /**
   * Requests at once per key, as subscription accounts and relays cap them (R-PO-8): one more is answered 429
   * "Too many concurrent requests". Keys without an entry are not limited; every key's in-flight count is
   * recorded either way (`concurrency()`).
   */
  concurrencyLimits?: Readonly<Record<string, number>>;
  /** How long the access tokens of `POST /token` (Google's service-account grant) live (default 3600 s). */
  tokenLifetimeSeconds?: number;
}

/** What was in flight on one key: now, the most at any moment, and the requests refused for going over its limit. */
export interface MockKeyConcurrency {
  inFlight: number;
  maxInFlight: number;
  rejected: number;
}

export interface MockProvider {
  /** `http://127.0.0.1:<port>` — append `/v1` for OpenAI/Anthropic SDK base URLs. */
  readonly url: string;
  readonly port: number;
  counts(): MockCounts;
  /** The most recent requests, oldest first, without credentials. */
  requests(): RecordedRequest[];
  /** Clears counts and recordings and rewinds every rule to its first step. */
  reset(): void;
  /** Budget windows per key: limit, used, reset, and how many requests were answered 429 for a spent one. */
  budgets(): Record<string, BudgetKeyState>;
  /** In flight per key (R-PO-8): now, the most at once, and how many were refused over `concurrencyLimits`. */
  concurrency(): Record<string, MockKeyConcurrency>;
  /** The access tokens `POST /token` issued, oldest first (which service account, which scope). */
  tokenGrants(): MockTokenGrant[];
  /** Refuses every access token `POST /token` issued so far (a revoked service-account key): the next one is good. */
  revokeTokens(): void;
  /** Replaces the scenario (rules start from their first step); counts are kept. */
  setScenario(scenario: MockScenarioSelection): void;
  /** Stops listening, ends waiting faults, destroys open sockets. */
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "::1", "localhost"]);

/** Steps whose answer starts being generated: the prompt was read, so its prefix is cached. */
const PROMPT_READING_FAULTS: ReadonlySet<string> = new Set([
  "ok",
  "slow-first-token",
  "slow-generation",
  "stream-cut",
  "stall",
  "malformed-chunk",
  "missing-done",
  "stream-error",
]);

/** As OpenAI and Anthropic do, shorter prefixes are not cached (marked or not). */
const MIN_CACHED_PREFIX_TOKENS = 1024;

/** Cache reads and writes of the request's prompt prefix (per key and model, as a provider caches per account). */
function withPromptCache(reply: MockReply, conversation: MockConversation, cache: PromptCache, scope: string): MockReply {
  const prefix = conversation.features?.cachePrefix;
  if (!prefix || estimateTokens(prefix.characters) < MIN_CACHED_PREFIX_TOKENS) return reply;
  const tokens = Math.min(estimateTokens(prefix.characters), reply.usage.inputTokens);
  const used = cache.use(scope, prefix, tokens);
  return Object.keys(used).length === 0 ? reply : { ...reply, usage: { ...reply.usage, ...used } };
}
const DEFAULT_MODELS = ["mock-gpt", "mock-claude", "mock-gemini", "mock-llama"];

interface Route {
  wire: MockWire;
  route: WireRoute;
  /** Azure OpenAI and Vertex AI paths check their own auth (api-key and api-version; a token this mock issued); Bedrock a SigV4 signature. */
  cloud?: CloudRoute["cloud"] | "bedrock";
}

const GOOGLE_PATH = /^\/v1(?:beta)?\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

function routeChat(method: string, url: URL): Route | undefined {
  if (method !== "POST") return undefined;
  const base = { searchParams: url.searchParams };
  if (url.pathname === "/v1/chat/completions") return { wire: openAIWire, route: base };
  if (url.pathname === "/v1/responses") return { wire: openAIResponsesWire, route: base };
  if (url.pathname === "/v1/messages") return { wire: anthropicWire, route: base };
  if (url.pathname === "/api/chat") return { wire: ollamaWire, route: base };
  if (url.pathname === "/v1/embeddings") return { wire: openAIEmbeddingsWire, route: base };
  if (url.pathname === "/api/embed") return { wire: ollamaEmbedWire, route: base };
  if (url.pathname === "/v1/messages/count_tokens") return { wire: anthropicCountTokensWire, route: base };
  const cloud = routeCloud(url);
  if (cloud) return cloud;
  const bedrock = routeBedrock(url);
  if (bedrock) return { ...bedrock, cloud: "bedrock" };
  const google = GOOGLE_PATH.exec(url.pathname);
  if (google?.[1]) {
    return {
      wire: googleWire,
      route: {
        ...base,
        modelFromPath: decodeURIComponent(google[1]),
        streamFromPath: google[2] === "streamGenerateContent",
      },
    };
  }
  return undefined;
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The credential as each provider sends it: Bearer, x-api-key, x-goog-api-key, Azure's api-key or `?key=`. */
export function extractApiKey(request: IncomingMessage, url: URL): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(headerValue(request, "authorization") ?? "")?.[1]?.trim();
  return (
    bearer ||
    headerValue(request, "x-api-key") ||
    headerValue(request, "x-goog-api-key") ||
    headerValue(request, "api-key") ||
    url.searchParams.get("key") ||
    undefined
  );
}

function readBody(request: IncomingMessage, maxBytes: number): Promise<{ text: string } | { tooLarge: true }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on("end", () => resolve(tooLarge ? { tooLarge: true } : { text: new TextDecoder().decode(Buffer.concat(chunks)) }));
    request.on("error", reject);
  });
}

function toRules(selection: MockScenarioSelection, named: Readonly<Record<string, MockScenario>>): MockRule[] {
  if (typeof selection === "string") return resolveScenarioName(selection, named).rules;
  const parsed = Array.isArray(selection)
    ? mockRuleSchema.array().safeParse(selection)
    : mockScenarioSchema.transform((scenario) => scenario.rules).safeParse(selection);
  if (!parsed.success) {
    throw new MockScenarioError(`Invalid mock-provider scenario: ${describeIssues(parsed.error.issues)}. See docs/mock-provider.md.`);
  }
  return parsed.data;
}

/** The header a provider names its request id in, where it is not OpenAI's `x-request-id`. */
const REQUEST_ID_HEADERS: Partial<Record<MockWireApi, string>> = { anthropic: "request-id", bedrock: "x-amzn-requestid" };

/** The refusal of one request too many at once, in the shape each provider sends it. */
function concurrencyLimitBody(api: MockWireApi): unknown {
  const message = "Too many concurrent requests for this key. Wait for a request to finish and try again.";
  if (api === "anthropic") return { type: "error", error: { type: "rate_limit_error", message } };
  if (api === "google") return { error: { code: 429, status: "RESOURCE_EXHAUSTED", message } };
  if (api === "ollama") return { error: message };
  if (api === "bedrock") return { message };
  return { error: { message, type: "rate_limit_error", code: "concurrency_limit_exceeded" } };
}

function renderModelList(url: URL, request: IncomingMessage, models: readonly string[]): unknown | undefined {
  if (url.pathname === "/v1/models") {
    if (headerValue(request, "anthropic-version") !== undefined) {
      const data = models.map((id) => ({ type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" }));
      return { data, has_more: false, first_id: models[0] ?? null, last_id: models[models.length - 1] ?? null };
    }
    return { object: "list", data: models.map((id) => ({ id, object: "model", created: 1_735_689_600, owned_by: "mock" })) };
  }
  if (url.pathname === "/v1beta/models") {
    return {
      models: models.map((id) => ({
        name: `models/${id}`,
        displayName: id,
        supportedGenerationMethods: ["generateContent", "streamGenerateContent"],
      })),
    };
  }
  if (url.pathname === "/api/tags") {
    return { models: models.map((name) => ({ name, model: name, modified_at: "2025-01-01T00:00:00Z", size: 0 })) };
  }
  return undefined;
}

export async function startMockProvider(options: MockProviderOptions = {}): Promise<MockProvider> {
  const host = options.host ?? "127.0.0.1";
  if (!LOOPBACK_HOSTS.has(host)) {
    throw new MockScenarioError(`The mock provider binds only to loopback (127.0.0.1, ::1, localhost), not "${host}".`);
  }
  const named = options.scenarios ?? {};
  const models = options.models ?? DEFAULT_MODELS;
  const tokenDelayMs = options.tokenDelayMs ?? 0;
  const maxBodyBytes = options.maxBodyBytes ?? 10 * 1024 * 1024;
  const log = new RequestLog(options.recordLimit ?? 100);
  const promptCache = new PromptCache(options.promptCacheSize ?? 256);
  const timers = new TimerSet();
  const sockets = new Set<Socket>();
  const closing = new AbortController();
  // Every request in flight listens for the close (and stops listening when it ends): a load test holds
  // more than the default ten at once, which is not a leak.
  setMaxListeners(0, closing.signal);
  let ruleBook = new RuleBook(toRules(options.scenario ?? "healthy", named));
  const now = () => (options.clock ? options.clock.now() : Date.now());
  const givenBudgets = mockBudgetsSchema.parse(options.budgets ?? {});
  let budgetsInUse = scenarioBudgets(options.scenario ?? "healthy", named) ?? givenBudgets;
  let budgetBook = new BudgetBook(budgetsInUse, now);
  const concurrency = new Map<string, MockKeyConcurrency>();
  const tokens = new MockTokenEndpoint(options.tokenLifetimeSeconds ?? 3600);

  /** Counts the request in flight on its key until its response closes; false when the key's limit is reached. */
  function enterKey(key: string | undefined, response: ServerResponse): boolean {
    const id = key ?? "(none)";
    const entry = concurrency.get(id) ?? { inFlight: 0, maxInFlight: 0, rejected: 0 };
    concurrency.set(id, entry);
    const limit = key === undefined ? undefined : options.concurrencyLimits?.[key];
    if (limit !== undefined && entry.inFlight >= limit) {
      entry.rejected += 1;
      return false;
    }
    entry.inFlight += 1;
    entry.maxInFlight = Math.max(entry.maxInFlight, entry.inFlight);
    response.once("close", () => {
      entry.inFlight -= 1;
    });
    return true;
  }

  /** Azure's and Vertex's refusals before the body is read: a missing api-version, key or issued token. */
  function cloudRefusal(
    target: Route,
    request: IncomingMessage,
    url: URL,
    key: string | undefined,
  ): { status: number; body: unknown } | undefined {
    if (target.cloud === "azure") {
      if (!url.searchParams.get("api-version")) return { status: 404, body: { error: { code: "404", message: "Resource not found" } } };
      if (key === undefined) return { status: 401, body: azureAccessDenied() };
    }
    if (target.cloud === "vertex" && (headerValue(request, "authorization") === undefined || !tokens.accepts(key))) {
      return { status: 401, body: VERTEX_UNAUTHENTICATED };
    }
    return undefined;
  }

  async function handleChat(request: IncomingMessage, response: ServerResponse, url: URL, target: Route): Promise<void> {
    const { wire } = target;
    // A Bedrock call names its key in the SigV4 Authorization header; the signature is checked once the body is read.
    const key = target.cloud === "bedrock" ? awsAccessKeyOf(headerValue(request, "authorization")) : extractApiKey(request, url);
    const refusal = cloudRefusal(target, request, url, key);
    if (refusal) {
      request.resume();
      log.record({
        sequence: log.nextSequence(),
        api: wire.api,
        method: request.method ?? "POST",
        path: withoutKeyParameter(request.url ?? "/"),
        keyFingerprint: fingerprintKey(key),
        headers: withoutSecretHeaders(request.headers),
        model: target.route.modelFromPath ?? "(unknown)",
        stream: false,
        body: null,
        fault: "invalid-key",
      });
      return sendJson(response, refusal.status, refusal.body);
    }
    const sequence = log.nextSequence();
    const requestId = `req_mock_${sequence}`;
    const body = await readBody(request, maxBodyBytes);
    const recordBase = {
      sequence,
      api: wire.api,
      method: request.method ?? "POST",
      path: withoutKeyParameter(request.url ?? "/"),
      keyFingerprint: fingerprintKey(key),
      headers: withoutSecretHeaders(request.headers),
    };
    if ("tooLarge" in body) {
      log.countChat(key, target.route.modelFromPath ?? "(unknown)");
      log.record({ ...recordBase, model: "(unknown)", stream: false, body: null, fault: "bad-request" });
      return sendJson(response, 413, wire.badRequestBody(`Request body exceeds ${maxBodyBytes} bytes.`));
    }
    if (target.cloud === "bedrock") {
      const refusal = bedrockSignatureRefusal({
        method: request.method ?? "POST",
        path: request.url ?? "/",
        headers: request.headers,
        body: body.text,
      });
      if (refusal) {
        log.record({ ...recordBase, model: target.route.modelFromPath ?? "(unknown)", stream: false, body: null, fault: "invalid-key" });
        return sendJson(response, refusal.status, refusal.body, refusal.headers);
      }
    }
    let parsedBody: unknown;
    try {
      parsedBody = JSON.parse(body.text);
    } catch {
      parsedBody = undefined;
    }
    const read =
      parsedBody === undefined
        ? { ok: false as const, message: "We could not parse the JSON body of your request." }
        : wire.readRequest(parsedBody, target.route);
    if (!read.ok) {
      const model = target.route.modelFromPath ?? "(unknown)";
      log.countChat(key, model);
      log.record({ ...recordBase, model, stream: false, body: parsedBody ?? body.text, fault: "bad-request" });
      return sendJson(response, 400, wire.badRequestBody(read.message));
    }
    const { info } = read;
    log.countChat(key, info.model);
    if (!enterKey(key, response)) {
      log.record({ ...recordBase, model: info.model, stream: info.stream, body: parsedBody, fault: "rate-limit" });
      return sendJson(response, 429, concurrencyLimitBody(wire.api));
    }
    const budget = budgetBook.take(key);
    const decision =
      budget.kind === "rejected"
        ? budgetRejection(budget, wire.api, now())
        : ruleBook.next({ model: info.model, api: wire.api, ...(key === undefined ? {} : { key }) });
    log.record({
      ...recordBase,
      model: info.model,
      stream: info.stream,
      body: parsedBody,
      fault: decision.step.fault,
      ...(decision.ruleName === undefined ? {} : { ruleName: decision.ruleName }),
    });

    // One signal for "stop answering": the client went away or the server is closing.
    const aborted = new AbortController();
    const abort = () => aborted.abort();
    response.on("close", abort);
    closing.signal.addEventListener("abort", abort, { once: true });
    try {
      const keyFingerprint = fingerprintKey(key);
      const idPrefix = {
        openai: "chatcmpl-mock-",
        "openai-responses": "resp_mock_",
        anthropic: "msg_mock_",
        google: "mock-response-",
        ollama: "",
        // A Converse answer carries no id.
        bedrock: "",
      }[wire.api];
      const fixed = decision.answer;
      if (
        fixed?.continuation?.prefill === "reject" &&
        fixed.answer !== undefined &&
        continuationOf(info.conversation, fixed.answer)?.kind === "prefill"
      ) {
        // R-ST-4: like current Claude models, this one takes no trailing assistant message.
        return sendJson(response, 400, wire.badRequestBody(PREFILL_REJECTED_MESSAGE), { "x-mock-fault": "prefill-rejected" });
      }
      const answer =
        fixed?.answer !== undefined
          ? fixedAnswerReply(info.conversation, fixed.answer, fixed.continuation?.style)
          : buildMockReply(info.conversation, { model: info.model, keyFingerprint, sequence });
      const thought = withThinking(answer, info.conversation);
      // Only a request the model started answering reads or fills the prompt cache; a refused one does not.
      const reply = PROMPT_READING_FAULTS.has(decision.step.fault)
        ? withPromptCache(thought, info.conversation, promptCache, `${keyFingerprint}\u0000${info.model}`)
        : thought;
      const tokens = reply.usage.inputTokens + reply.usage.outputTokens;
      const rateLimitHeaders = allowedBudgetHeaders(budgetBook, budget, {
        ...(key === undefined ? {} : { key }),
        api: wire.api,
        tokens,
        now: now(),
      });
      await serveStep(
        {
          request,
          response,
          wire,
          stream: info.stream,
          reply,
          replyContext: {
            id: `${idPrefix}${sequence}`,
            model: info.model,
            createdSeconds: Math.floor(Date.now() / 1000),
            includeUsage: info.includeUsage,
            ...(info.payload !== undefined ? { payload: info.payload } : {}),
          },
          signal: aborted.signal,
          timers,
          tokenDelayMs,
          headers: {
            [REQUEST_ID_HEADERS[wire.api] ?? "x-request-id"]: requestId,
            "x-mock-fault": decision.step.fault,
            ...rateLimitHeaders,
          },
        },
        decision.step,
      );
    } finally {
      closing.signal.removeEventListener("abort", abort);
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://mock.invalid");
    const chat = routeChat(request.method ?? "GET", url);
    if (chat) return handleChat(request, response, url, chat);
    if (request.method === "POST" && url.pathname === MOCK_TOKEN_PATH) return tokens.grant(request, response);
    if (request.method === "GET") {
      const list = renderModelList(url, request, models);
      if (list !== undefined) {
        log.countModelListing();
        return sendJson(response, 200, list);
      }
    }
    request.resume();
    sendJson(response, 404, {
      error: {
        message: `The mock provider does not serve ${request.method ?? "?"} ${url.pathname}. See docs/mock-provider.md for its paths.`,
        type: "invalid_request_error",
        code: "unknown_url",
      },
    });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        sendJson(response, 500, { error: { message: `Mock provider failure: ${String(error)}`, type: "server_error" } });
      } else {
        response.destroy();
      }
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  const port = options.port ?? 0;
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? new MockProviderPortInUseError(host, port, error) : error);
    server.once("error", failed);
    server.listen(port, host, () => {
      server.off("error", failed);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === "IPv6" ? `[${address.address}]` : address.address;

  let closed: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    counts: () => log.snapshotCounts(),
    requests: () => log.snapshotRequests(),
    budgets: () => budgetBook.snapshot(),
    concurrency: () => Object.fromEntries([...concurrency].map(([key, entry]) => [key, { ...entry }])),
    tokenGrants: () => tokens.grants(),
    revokeTokens: () => tokens.revokeAll(),
    reset() {
      log.clear();
      promptCache.clear();
      ruleBook.rewind();
      budgetBook = new BudgetBook(budgetsInUse, now);
    },
    setScenario(selection) {
      ruleBook = new RuleBook(toRules(selection, named));
      budgetsInUse = scenarioBudgets(selection, named) ?? givenBudgets;
      budgetBook = new BudgetBook(budgetsInUse, now);
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        timers.clear();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
