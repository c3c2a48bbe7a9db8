/**
 * What the provider tests against the mock provider share: one mock per test, closed after it (an `afterEach`
 * of the calling file), and a stream read to its end. A fixture: never built into dist/.
 */
import { afterEach } from "vitest";
import type { CanonicalStreamEvent } from "../../../ports/canonical.js";
import { startMockProvider, type MockProvider, type MockScenarioSelection } from "../../../testing/mock-provider/index.js";

/** Starts a mock provider with the scenario a test names ("healthy" by default); the file's afterEach closes it. */
export function mockProviderPerTest(): (scenario?: MockScenarioSelection) => Promise<MockProvider> {
  let mock: MockProvider | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });
  return async (scenario = "healthy") => {
    mock = await startMockProvider({ scenario });
    return mock;
  };
}

/** Every event of a provider's stream, in order. */
export async function collectEvents(events: AsyncIterable<CanonicalStreamEvent>): Promise<CanonicalStreamEvent[]> {
  const seen: CanonicalStreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}
