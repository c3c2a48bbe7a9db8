/**
 * `detour.run(...)` (SPEC §17): one canonical chat request through the pipe's chat runner (chat-runner.ts),
 * answered by whichever provider API the chain reaches. This is the runner's canonical face: the request is a
 * canonical request, every candidate is called through its canonical provider, and the answer is a canonical
 * response or, streamed, a committed stream of canonical events.
 */
import type { CanonicalRequest, CanonicalResponse } from "../ports/canonical.js";
import type { RunOutcome } from "../runner/attempt.js";
import { createChatRunner, type CanonicalStreamResult, type ChatRunner, type ChatRunOptions } from "./chat-runner.js";
import type { ChatRunnerSettings, ProviderLookup, RunRouting } from "./run-options.js";
import type { RunnerDetour } from "./run-with.js";

export type { CanonicalStreamResult } from "./chat-runner.js";
export type { RunnerDetour } from "./run-with.js";

export interface CanonicalRunOptions extends RunRouting {
  request: CanonicalRequest;
  stream?: boolean;
}

export interface CanonicalRunner {
  run(options: CanonicalRunOptions & { stream: true }): Promise<RunOutcome<CanonicalStreamResult>>;
  run(options: CanonicalRunOptions & { stream?: false }): Promise<RunOutcome<CanonicalResponse>>;
  run(options: CanonicalRunOptions): Promise<RunOutcome<CanonicalResponse | CanonicalStreamResult>>;
}

/** The canonical face of a chat runner: no client bytes, so every answer is canonical. */
export function canonicalRunnerOf(chat: ChatRunner): CanonicalRunner {
  function chatOptions(options: CanonicalRunOptions): ChatRunOptions {
    const { request, stream, ...routing } = options;
    return { ...routing, request: { stream: stream === true, canonical: () => request } };
  }

  async function complete(options: CanonicalRunOptions): Promise<RunOutcome<CanonicalResponse>> {
    const outcome = await chat.complete(chatOptions(options));
    const answer = outcome.result;
    if (answer.lane !== "canonical") throw new Error("Internal: a canonical run was answered with a client's bytes.");
    return { ...outcome, result: answer.response };
  }

  async function stream(options: CanonicalRunOptions): Promise<RunOutcome<CanonicalStreamResult>> {
    const outcome = await chat.stream(chatOptions(options));
    const answer = outcome.result;
    if (answer.lane !== "canonical") throw new Error("Internal: a canonical run was answered with a client's bytes.");
    return { ...outcome, result: answer.stream };
  }

  function run(options: CanonicalRunOptions & { stream: true }): Promise<RunOutcome<CanonicalStreamResult>>;
  function run(options: CanonicalRunOptions & { stream?: false }): Promise<RunOutcome<CanonicalResponse>>;
  function run(options: CanonicalRunOptions): Promise<RunOutcome<CanonicalResponse | CanonicalStreamResult>>;
  function run(options: CanonicalRunOptions): Promise<RunOutcome<CanonicalResponse | CanonicalStreamResult>> {
    return options.stream ? stream(options) : complete(options);
  }
  return { run };
}

/** A canonical runner of its own (the library's public entry point): a chat runner that calls every candidate canonically. */
export function createCanonicalRunner(detour: RunnerDetour, providers: ProviderLookup, settings: ChatRunnerSettings): CanonicalRunner {
  return canonicalRunnerOf(createChatRunner(detour, providers, undefined, settings));
}
