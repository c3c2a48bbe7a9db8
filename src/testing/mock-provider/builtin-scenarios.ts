/**
 * Named scenarios for `detour mock-provider --scenario <name>` and tests. Every fault scenario is sticky
 * (the provider keeps behaving that way) except `flaky`, which fails twice and then recovers, and
 * `mid-stream-cut`, which cuts its first stream and then answers (so a continuation can rescue it).
 */
import { mockScenarioSchema, type MockScenario, type MockScenarioInput } from "./scenario-schema.js";

function sticky(description: string, step: MockScenarioInput["rules"][number]["steps"][number]): MockScenarioInput {
  return { description, rules: [{ name: "default", steps: [step], then: "repeat-last" }] };
}

/** The fixed answer of `mid-stream-cut`: long enough that a cut lands mid-answer. */
export const MID_STREAM_CUT_ANSWER =
  "Once upon a time a small fox lived at the edge of a quiet forest. Every morning it walked to the river, " +
  "counted the stones on the bank and listened to the water telling stories of the mountains far away.";

const BUILTIN_SCENARIO_INPUTS: Record<string, MockScenarioInput> = {
  healthy: { description: "Every request answers normally.", rules: [] },
  "rate-limited": sticky("429 rate limit without Retry-After on every request.", "rate-limit"),
  "rate-limited-with-retry-after": sticky("429 rate limit with `retry-after: 2` on every request.", {
    fault: "rate-limit",
    retryAfterSeconds: 2,
  }),
  billing: sticky("402 out of credits on every request.", "billing"),
  "revoked-key": sticky("401 revoked API key on every request.", "revoked-key"),
  overloaded: sticky("529 overloaded on every request.", "overloaded"),
  unavailable: sticky("503 service unavailable on every request.", "unavailable"),
  "server-error": sticky("500 internal server error on every request.", "server-error"),
  flaky: {
    description: "Two 500s, then healthy answers.",
    rules: [{ name: "default", steps: [{ fault: "server-error", times: 2 }], then: "ok" }],
  },
  "slow-first-token": sticky("Headers at once, first token after 5 seconds.", {
    fault: "slow-first-token",
    delayMs: 5000,
  }),
  "slow-generation": sticky("A steady generation: 40 tokens, one every 500 ms (20 s in all); non-streamed answers after 20 s.", {
    fault: "slow-generation",
    tokenDelayMs: 500,
    tokens: 40,
  }),
  "stream-unsupported": sticky("400 for `stream: true` (the model does not stream); non-streamed requests answer.", "stream-unsupported"),
  "stream-cut": sticky("The connection is cut after 2 tokens.", { fault: "stream-cut", afterTokens: 2 }),
  stall: sticky("The stream stops sending after 2 tokens and never finishes.", { fault: "stall", afterTokens: 2 }),
  "malformed-chunk": sticky("One unparseable chunk after the first token; the rest is healthy.", {
    fault: "malformed-chunk",
    afterTokens: 1,
  }),
  "ignores-stream": sticky(
    "`stream: true` is ignored: every request gets the complete JSON answer (200, application/json).",
    "ignores-stream",
  ),
  "missing-done": sticky("Streams finish with a finish reason and usage but no [DONE] / message_stop.", "missing-done"),
  "stream-error": sticky("An in-band overloaded error event after 2 tokens.", {
    fault: "stream-error",
    error: "overloaded",
    afterTokens: 2,
  }),
  "context-overflow": sticky("400 context length exceeded on every request.", "context-overflow"),
  "content-filter": sticky("400 content policy rejection on every request.", "content-filter"),
  "model-not-found": sticky("404 unknown model on every request.", "model-not-found"),
  "mid-stream-cut": {
    description:
      "A fixed story whose first stream is cut after 12 words; later requests answer, and a continuation repeats the last two words first.",
    rules: [
      {
        name: "default",
        answer: MID_STREAM_CUT_ANSWER,
        continuation: { style: "repeat-last-words" },
        steps: [{ fault: "stream-cut", afterTokens: 12 }],
        then: "ok",
      },
    ],
  },
  silence: sticky("Accepts the request and never answers until the client gives up.", "silence"),
  reset: sticky("Resets the connection before sending any header.", "reset"),
};

export const BUILTIN_SCENARIOS: Readonly<Record<string, MockScenario>> = Object.freeze(
  Object.fromEntries(Object.entries(BUILTIN_SCENARIO_INPUTS).map(([name, input]) => [name, mockScenarioSchema.parse(input)])),
);

export const BUILTIN_SCENARIO_NAMES: readonly string[] = Object.keys(BUILTIN_SCENARIOS);
