/**
 * Everything the demo starts, in one place so it can all be stopped: two fault-injecting mock providers
 * on 127.0.0.1 (one speaking the OpenAI wire format, one the Anthropic one), a Detour on an embedded
 * SQLite store inside the demo's temp DETOUR_HOME with the fake keys stored in it, and the real HTTP
 * gateway in front of that Detour. `close()` stops them in reverse order and never throws half-way, so a
 * failing step cannot leave a listener or a file handle behind.
 */
import { parseConfig, type DetourConfig } from "../config/index.js";
import { createDetour, type Detour } from "../engine/index.js";
import { startGateway, type RunningGateway } from "../gateway/start-gateway.js";
import { silentLogger, type Logger } from "../ports/events.js";
import { startMockProvider, type MockProvider } from "../testing/mock-provider/index.js";
import type { DemoClock } from "./demo-clock.js";
import { buildDemoConfig, DEMO_PROFILE_LIST, DEMO_SEATS_PER_ACCOUNT, OPENAI_STORED_ORDER } from "./demo-setup.js";
import type { DemoWorkspace } from "./demo-workspace.js";

const LOOPBACK = "127.0.0.1";

export interface DemoStack {
  readonly gatewayUrl: string;
  readonly openaiMock: MockProvider;
  readonly anthropicMock: MockProvider;
  readonly detour: Detour;
  readonly config: DetourConfig;
  close(): Promise<void>;
}

export interface StartDemoStackOptions {
  workspace: DemoWorkspace;
  clock: DemoClock;
  logger?: Logger;
}

/**
 * Stops what was started, last-in first-out and one at a time (the gateway must stop taking requests before
 * the store under it closes). Every closer runs even when an earlier one fails; the first failure is
 * rethrown at the end.
 */
class ShutdownStack {
  readonly #closers: (() => Promise<void>)[] = [];

  push(close: () => Promise<void>): void {
    this.#closers.push(close);
  }

  async closeAll(): Promise<void> {
    let firstError: unknown;
    for (const close of this.#closers.splice(0).reverse()) {
      await close().catch((error: unknown) => {
        firstError ??= error;
      });
    }
    if (firstError !== undefined) throw firstError;
  }
}

export async function startDemoStack(options: StartDemoStackOptions): Promise<DemoStack> {
  const logger = options.logger ?? silentLogger;
  const shutdown = new ShutdownStack();
  try {
    // Budget windows run on the demo clock too, so a skipped minute resets a key's window at the mock as well.
    // Each key takes as many requests at once as its account has seats, and answers one more with a 429.
    const concurrencyLimits = Object.fromEntries(DEMO_PROFILE_LIST.map((profile) => [profile.key, DEMO_SEATS_PER_ACCOUNT]));
    const mockOptions = { host: LOOPBACK, port: 0, scenario: "healthy", clock: options.clock, concurrencyLimits } as const;
    const openaiMock = await startMockProvider({ ...mockOptions, models: ["gpt-4o-mini"] });
    shutdown.push(() => openaiMock.close());
    const anthropicMock = await startMockProvider({ ...mockOptions, models: ["claude-sonnet-4-5"] });
    shutdown.push(() => anthropicMock.close());

    const { config } = parseConfig(buildDemoConfig({ openai: openaiMock.url, anthropic: anthropicMock.url }), "the demo config");
    const detour = await createDetour({
      config,
      clock: options.clock,
      env: options.workspace.env,
      logger,
    });
    shutdown.push(() => detour.close());

    // R-AP-2: the keys live in the (temporary) store, never in the config; the OpenAI keys get a stored order.
    const store = await detour.store();
    for (const profile of DEMO_PROFILE_LIST) {
      await store.upsertProfile({ id: profile.id, credential: { type: "api_key", provider: profile.provider, key: profile.key } });
    }
    await store.setStoredOrder("openai", [...OPENAI_STORED_ORDER]);

    const gateway: RunningGateway = await startGateway({ detour, clock: options.clock, host: LOOPBACK, port: 0, logger });
    shutdown.push(() => gateway.close());

    return {
      gatewayUrl: gateway.url,
      openaiMock,
      anthropicMock,
      detour,
      config,
      close: () => shutdown.closeAll(),
    };
  } catch (error) {
    await shutdown.closeAll().catch(() => undefined);
    throw error;
  }
}
