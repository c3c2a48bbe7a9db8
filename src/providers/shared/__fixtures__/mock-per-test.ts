/**
 * What the provider tests against the mock provider share: one mock per test, closed after it (an `afterEach`
 * of the calling file), and a stream read to its end. A fixture: never built into dist/.
 */
import type { CanonicalStreamEvent } from "../../../ports/canonical.js";
import { mockPerTest } from "../../../testing/mock-provider/__fixtures__/mock-per-test.js";
import type { MockProvider, MockScenarioSelection } from "../../../testing/mock-provider/index.js";

/** Starts a mock provider with the scenario a test names ("healthy" by default); the file's afterEach closes it. */
export function mockProviderPerTest(): (scenario?: MockScenarioSelection) => Promise<MockProvider> {
  const start = mockPerTest();
  return (scenario = "healthy") => start({ scenario });
}

/** Every event of a provider's stream, in order. */
export async function collectEvents(events: AsyncIterable<CanonicalStreamEvent>): Promise<CanonicalStreamEvent[]> {
  const seen: CanonicalStreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}
