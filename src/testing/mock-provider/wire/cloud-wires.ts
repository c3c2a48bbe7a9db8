/**
 * The clouds' paths of the mock: Azure OpenAI (`/openai/deployments/<d>/chat/completions|embeddings`,
 * `/openai/responses`, each with `?api-version=`) answering in OpenAI's wire with Azure's own error bodies and
 * `retry-after-ms`; Vertex AI (`/v1/projects/<p>/locations/<l>/publishers/google|anthropic/models/<m>:<method>`)
 * answering Gemini's wire and Claude's (the body without `model`, with `anthropic_version: "vertex-2023-10-16"`)
 * with Google's quota errors. Rules match them by the wire's `api` (`openai`, `anthropic`, `google`), key and
 * model (the deployment, or the model in the path).
 */
import { messageFor, type ResolvedMockError } from "../error-presets.js";
import { anthropicWire } from "./anthropic-wire.js";
import { openAIEmbeddingsWire } from "./embeddings-wires.js";
import { googleWire } from "./google-wire.js";
import { isRecord, type MockWire, type WireRoute } from "./mock-wire.js";
import { openAIResponsesWire } from "./openai-responses-wire.js";
import { openAIWire } from "./openai-wire.js";

/** What Vertex requires in a Claude body instead of the Messages API's version header. */
export const MOCK_VERTEX_ANTHROPIC_VERSION = "vertex-2023-10-16";

/** The operation Azure names in its throttling text, per path. */
const AZURE_OPERATIONS = { chat: "ChatCompletions_Create", responses: "Responses_Create", embeddings: "Embeddings_Create" } as const;

/** Azure's error body: `code` is a string, throttles say "exceeded call rate limit", content filters carry `innererror`. */
function azureErrorBody(error: ResolvedMockError, operation: keyof typeof AZURE_OPERATIONS): unknown {
  if (error.preset === "rate-limit" && error.message === undefined) {
    const seconds = Math.max(1, Math.ceil(error.retryAfterSeconds ?? 1));
    return {
      error: {
        code: "429",
        message:
          `Requests to the ${AZURE_OPERATIONS[operation]} Operation under Azure OpenAI API version 2024-10-21 have exceeded call rate limit ` +
          `of your current OpenAI S0 pricing tier. Please retry after ${seconds} second${seconds === 1 ? "" : "s"}. ` +
          "Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit.",
      },
    };
  }
  if (error.preset === "content-filter" && error.message === undefined) {
    return {
      error: {
        message:
          "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry.",
        type: null,
        param: "prompt",
        code: "content_filter",
        status: 400,
        innererror: {
          code: "ResponsibleAIPolicyViolation",
          content_filter_result: {
            hate: { filtered: false, severity: "safe" },
            self_harm: { filtered: false, severity: "safe" },
            sexual: { filtered: false, severity: "safe" },
            violence: { filtered: true, severity: "medium" },
          },
        },
      },
    };
  }
  if (error.preset === "invalid-key" || error.preset === "revoked-key") return azureAccessDenied();
  return { error: { code: error.row.openai.code ?? String(error.status), message: messageFor(error, "openai") } };
}

export function azureAccessDenied(): unknown {
  return {
    error: {
      code: "401",
      message:
        "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.",
    },
  };
}

/** Azure states the wait in milliseconds beside whole seconds, and its remaining quota. */
function azureErrorHeaders(error: ResolvedMockError): Record<string, string> {
  if (error.retryAfterSeconds === undefined) return {};
  return {
    "retry-after-ms": String(Math.round(error.retryAfterSeconds * 1000)),
    "x-ratelimit-remaining-requests": "0",
    "x-ratelimit-remaining-tokens": "0",
  };
}

/** The model of an Azure call is its deployment (in the path); the Responses API names it in the body. */
function withDeployment(body: unknown, route: WireRoute): unknown {
  return route.modelFromPath !== undefined && isRecord(body) ? { ...body, model: route.modelFromPath } : body;
}

function azureWire(base: MockWire, operation: keyof typeof AZURE_OPERATIONS): MockWire {
  const wire: MockWire = {
    ...base,
    readRequest: (body, route) => base.readRequest(withDeployment(body, route), route),
    errorBody: (error) => azureErrorBody(error, operation),
    errorHeaders: azureErrorHeaders,
    streamErrorFrame: (error) => `data: ${JSON.stringify(azureErrorBody(error, operation))}\n\n`,
  };
  return wire;
}

export const azureChatWire = azureWire(openAIWire, "chat");
export const azureResponsesWire = azureWire(openAIResponsesWire, "responses");
export const azureEmbeddingsWire = azureWire(openAIEmbeddingsWire, "embeddings");

/** Vertex's quota error for a publisher model, per region and base model. */
function vertexQuotaBody(model: string): unknown {
  return {
    error: {
      code: 429,
      message:
        `Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model with base model: ${model}. ` +
        "Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai.",
      status: "RESOURCE_EXHAUSTED",
    },
  };
}

/**
 * Claude on Vertex: the model comes from the path, the body must not name one and must carry Vertex's
 * `anthropic_version`. A rate limit is Google's RESOURCE_EXHAUSTED; Claude's own errors (529 overloaded) keep
 * Anthropic's shape, as Vertex relays them.
 */
export const vertexAnthropicWire: MockWire = {
  ...anthropicWire,
  readRequest(body, route) {
    if (!isRecord(body)) return { ok: false, message: "The request body must be a JSON object." };
    if (body.model !== undefined) return { ok: false, message: "model: Extra inputs are not permitted" };
    if (body.anthropic_version !== MOCK_VERTEX_ANTHROPIC_VERSION) {
      return { ok: false, message: `anthropic_version: expected "${MOCK_VERTEX_ANTHROPIC_VERSION}"` };
    }
    const streamAsked = route.streamFromPath === true;
    if ((body.stream === true) !== streamAsked) {
      return { ok: false, message: `stream must be ${String(streamAsked)} for :${streamAsked ? "streamRawPredict" : "rawPredict"}` };
    }
    return anthropicWire.readRequest({ ...body, model: route.modelFromPath }, route);
  },
  errorBody: (error) =>
    error.preset === "rate-limit" && error.message === undefined ? vertexQuotaBody(error.model) : anthropicWire.errorBody(error),
  errorHeaders: () => ({}),
  streamErrorFrame(error) {
    return `event: error\ndata: ${JSON.stringify(vertexAnthropicWire.errorBody(error))}\n\n`;
  },
};

/** Gemini on Vertex: Gemini's wire; its quota text names the base model. */
export const vertexGeminiWire: MockWire = {
  ...googleWire,
  errorBody: (error) =>
    error.preset === "rate-limit" && error.message === undefined ? vertexQuotaBody(error.model) : googleWire.errorBody(error),
};

const AZURE_DEPLOYMENT_PATH = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings)$/;
const VERTEX_MODEL_PATH =
  /^\/v1\/projects\/[^/]+\/locations\/[^/]+\/publishers\/(google|anthropic)\/models\/([^/:]+):(generateContent|streamGenerateContent|rawPredict|streamRawPredict)$/;

export type CloudRoute = { cloud: "azure" | "vertex"; wire: MockWire; route: WireRoute };

/** The cloud route of a POST, or undefined for a path no cloud has. */
export function routeCloud(url: URL): CloudRoute | undefined {
  const base = { searchParams: url.searchParams };
  if (url.pathname === "/openai/responses") return { cloud: "azure", wire: azureResponsesWire, route: base };
  const azure = AZURE_DEPLOYMENT_PATH.exec(url.pathname);
  if (azure?.[1] && azure[2]) {
    const wire = azure[2] === "embeddings" ? azureEmbeddingsWire : azureChatWire;
    return { cloud: "azure", wire, route: { ...base, modelFromPath: decodeURIComponent(azure[1]) } };
  }
  const vertex = VERTEX_MODEL_PATH.exec(url.pathname);
  if (vertex?.[1] && vertex[2] && vertex[3]) {
    const method = vertex[3];
    const publisher = vertex[1];
    const methodFits = publisher === "google" ? /generatecontent$/i.test(method) : /rawpredict$/i.test(method);
    if (!methodFits) return undefined;
    return {
      cloud: "vertex",
      wire: publisher === "google" ? vertexGeminiWire : vertexAnthropicWire,
      route: { ...base, modelFromPath: decodeURIComponent(vertex[2]), streamFromPath: method.startsWith("stream") },
    };
  }
  return undefined;
}
