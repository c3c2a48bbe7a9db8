/**
 * The library's public entry points check their arguments before anything runs: a wrong shape (a string
 * where a list of messages belongs, an embeddings call without a model) is a `DetourArgumentError` naming
 * the field and the expected shape, never a TypeError from deep inside a provider attempt, and no provider
 * is called. Only shapes are checked here; meanings (a model nobody offers, an unknown agent) are the
 * runner's. Objects are loose: fields these checks do not name pass through to the wire formats.
 */
import { z } from "zod";
import { formatConfigPath } from "../config/config-path.js";
import type { DetourProfiles, DetourSessions } from "./detour-api.js";
import { DetourArgumentError } from "./engine-errors.js";

const cacheMark = z.looseObject({ type: z.literal("ephemeral") }).optional();

const contentPart = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text"), text: z.string(), cache: cacheMark }),
  z.looseObject({
    type: z.literal("image"),
    source: z.union([
      z.looseObject({ kind: z.literal("base64"), mediaType: z.string(), data: z.string() }),
      z.looseObject({ kind: z.literal("url"), url: z.string() }),
    ]),
  }),
  z.looseObject({ type: z.literal("tool-call"), id: z.string(), name: z.string(), arguments: z.string() }),
  z.looseObject({ type: z.literal("tool-result"), toolCallId: z.string(), content: z.string() }),
  z.looseObject({ type: z.literal("thinking"), text: z.string() }),
]);

const message = z.looseObject({
  role: z.enum(["user", "assistant", "tool"]),
  content: z.array(contentPart),
});

const canonicalRequest = z.looseObject({
  model: z.string().optional(),
  system: z.string().optional(),
  systemParts: z.array(z.looseObject({ role: z.enum(["system", "developer"]), text: z.string() })).optional(),
  messages: z.array(message),
  tools: z.array(z.looseObject({ name: z.string().min(1), parameters: z.record(z.string(), z.unknown()) })).optional(),
  maxTokens: z.number().int().positive().optional(),
  temperature: z.number().optional(),
  stop: z.array(z.string()).optional(),
  stream: z.boolean().optional(),
});

const modelText = z.string().trim().min(1);
const fallbacks = z.union([z.literal("none"), z.array(modelText)]).optional();
const signal = z.custom<AbortSignal>((value) => value instanceof AbortSignal, "expected an AbortSignal").optional();

const routing = {
  agentId: z.string().optional(),
  model: modelText.optional(),
  fallbacks,
  source: z.enum(["cron", "heartbeat"]).optional(),
  strictModel: z.boolean().optional(),
  signal,
};

const runOptions = z.looseObject({
  ...routing,
  sessionKey: z.string().min(1).optional(),
  request: canonicalRequest,
  stream: z.boolean().optional(),
});

const embedOptions = z.looseObject({
  agentId: z.string().optional(),
  model: modelText,
  fallbacks,
  request: z.looseObject({
    input: z.union([
      z.string(),
      z.array(z.string()).min(1),
      z.array(z.number().int().nonnegative()).min(1),
      z.array(z.array(z.number().int().nonnegative()).min(1)).min(1),
    ]),
  }),
  signal,
});

const countTokensOptions = z.looseObject({
  ...routing,
  body: z.looseObject({ messages: z.array(z.looseObject({ role: z.string(), content: z.union([z.string(), z.array(z.unknown())]) })) }),
});

const runWithOptions = z.looseObject({ ...routing, sessionKey: z.string().min(1).optional() });

const agentOption = z.looseObject({ agentId: z.string().optional() }).optional();

const SHAPE_HINTS: Readonly<Record<string, string>> = {
  "request.messages": 'a list of messages, e.g. [{ role: "user", content: [{ type: "text", text: "Hi" }] }]',
  content: 'a list of content parts, e.g. [{ type: "text", text: "Hi" }]',
};

function issueText(issue: z.core.$ZodIssue): string {
  const last = issue.path[issue.path.length - 1];
  const hint = SHAPE_HINTS[formatConfigPath(issue.path)] ?? (last === "content" ? SHAPE_HINTS.content : undefined);
  const missing = "input" in issue && issue.input === undefined;
  let base: string;
  if (issue.code === "invalid_type") base = `expected ${hint ?? issue.expected}`;
  else if (issue.code === "invalid_union") base = `expected ${hint ?? "one of the documented shapes"}`;
  else base = issue.message.replace(/^Invalid (input|option): /, "");
  return missing ? `${base} (it is missing)` : base;
}

function check<T>(schema: z.ZodType<T>, value: unknown, call: string): void {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return;
  const issues = result.error.issues.slice(0, 3).map((issue) => `${formatConfigPath(issue.path) || "the options"}: ${issueText(issue)}`);
  throw new DetourArgumentError(`Invalid argument to ${call}: ${issues.join("; ")}.`);
}

/**
 * The run path is the gateway's hot path, so the common, valid case is answered by a plain walk over the
 * request; only a request that fails it goes through the schema, which names the field.
 */
export function checkRunArguments(options: unknown): void {
  if (!looksLikeRunOptions(options)) check(runOptions, options, "detour.run");
}

const ROLES: ReadonlySet<unknown> = new Set(["user", "assistant", "tool"]);
const PART_TEXT_FIELD: Readonly<Record<string, readonly string[]>> = {
  text: ["text"],
  "tool-call": ["id", "name", "arguments"],
  "tool-result": ["toolCallId", "content"],
  thinking: ["text"],
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === "string";
}

function looksLikePart(part: unknown): boolean {
  if (!isObject(part)) return false;
  if (part.type === "image") return isObject(part.source);
  const fields = typeof part.type === "string" && Object.hasOwn(PART_TEXT_FIELD, part.type) ? PART_TEXT_FIELD[part.type] : undefined;
  return fields !== undefined && fields.every((field) => typeof part[field] === "string");
}

/** Stricter than or equal to the schema: anything it accepts, the schema accepts too. */
function looksLikeRunOptions(options: unknown): boolean {
  if (!isObject(options) || !isObject(options.request)) return false;
  const request = options.request;
  if (!Array.isArray(request.messages)) return false;
  for (const message of request.messages) {
    if (!isObject(message) || !ROLES.has(message.role) || !Array.isArray(message.content)) return false;
    for (const part of message.content) if (!looksLikePart(part)) return false;
  }
  const simple =
    optionalString(options.agentId) &&
    (options.model === undefined || (typeof options.model === "string" && options.model.trim() !== "")) &&
    (options.sessionKey === undefined || (typeof options.sessionKey === "string" && options.sessionKey !== "")) &&
    (options.stream === undefined || typeof options.stream === "boolean") &&
    (options.strictModel === undefined || typeof options.strictModel === "boolean") &&
    (options.source === undefined || options.source === "cron" || options.source === "heartbeat") &&
    (options.signal === undefined || options.signal instanceof AbortSignal) &&
    (options.fallbacks === undefined ||
      options.fallbacks === "none" ||
      (Array.isArray(options.fallbacks) && options.fallbacks.every((ref) => typeof ref === "string" && ref.trim() !== ""))) &&
    optionalString(request.model) &&
    optionalString(request.system) &&
    (request.stream === undefined || typeof request.stream === "boolean");
  const parts = request.systemParts;
  const tools = request.tools;
  const stop = request.stop;
  return (
    simple &&
    (parts === undefined ||
      (Array.isArray(parts) &&
        parts.every((part) => isObject(part) && (part.role === "system" || part.role === "developer") && typeof part.text === "string"))) &&
    (tools === undefined ||
      (Array.isArray(tools) &&
        tools.every((tool) => isObject(tool) && typeof tool.name === "string" && tool.name !== "" && isObject(tool.parameters)))) &&
    (request.maxTokens === undefined || (Number.isInteger(request.maxTokens) && (request.maxTokens as number) > 0)) &&
    (request.temperature === undefined || typeof request.temperature === "number") &&
    (stop === undefined || (Array.isArray(stop) && stop.every((item) => typeof item === "string")))
  );
}

export function checkEmbedArguments(options: unknown): void {
  check(embedOptions, options, "detour.embed");
}

export function checkCountTokensArguments(options: unknown): void {
  check(countTokensOptions, options, "detour.countTokens");
}

export function checkRunWithArguments(options: unknown): void {
  check(runWithOptions, options, "detour.runWith");
}

export function checkAgentOption(options: unknown, call: string): void {
  check(agentOption, options, call);
}

/** A session key or profile id: a non-empty string. */
export function checkIdArgument(value: unknown, name: string, call: string): void {
  if (typeof value !== "string" || value.trim() === "") {
    throw new DetourArgumentError(`Invalid argument to ${call}: ${name}: expected a non-empty string.`);
  }
}

/** `detour.sessions` whose methods check the session key and options first. */
export function checkedSessionsApi(sessions: DetourSessions): DetourSessions {
  const keyed =
    <A extends unknown[], R>(name: string, method: (sessionKey: string, ...rest: A) => Promise<R>) =>
    async (sessionKey: string, ...rest: A): Promise<R> => {
      checkIdArgument(sessionKey, "sessionKey", `detour.sessions.${name}`);
      checkAgentOption(rest[rest.length - 1], `detour.sessions.${name}`);
      return method(sessionKey, ...rest);
    };
  return {
    get: keyed("get", sessions.get),
    list: async (options) => {
      checkAgentOption(options, "detour.sessions.list");
      return sessions.list(options);
    },
    patch: async (sessionKey, patch, options) => {
      checkIdArgument(sessionKey, "sessionKey", "detour.sessions.patch");
      check(sessionPatch, patch, "detour.sessions.patch");
      checkAgentOption(options, "detour.sessions.patch");
      return sessions.patch(sessionKey, patch, options);
    },
    reset: keyed("reset", sessions.reset),
    markCompacted: keyed("markCompacted", sessions.markCompacted),
    prune: async (options) => {
      check(pruneOptions, options, "detour.sessions.prune");
      return sessions.prune(options);
    },
    remove: keyed("remove", sessions.remove),
  };
}

/** `detour.profiles` whose methods check the profile id and options first. */
export function checkedProfilesApi(profiles: DetourProfiles): DetourProfiles {
  return {
    list: async (options) => {
      check(profileListOptions, options, "detour.profiles.list");
      return profiles.list(options);
    },
    reset: async (profileId, options) => {
      checkIdArgument(profileId, "profileId", "detour.profiles.reset");
      checkAgentOption(options, "detour.profiles.reset");
      return profiles.reset(profileId, options);
    },
  };
}

const sessionPatch = z.looseObject({ model: z.string().min(1).nullable().optional(), profile: z.string().min(1).nullable().optional() });
const pruneOptions = z.looseObject({ agentId: z.string().optional(), olderThanMs: z.number().nonnegative().optional() }).optional();
const profileListOptions = z.looseObject({ agentId: z.string().optional(), provider: z.string().optional() }).optional();
