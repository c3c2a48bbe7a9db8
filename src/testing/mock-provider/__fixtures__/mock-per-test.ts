/**
 * One mock provider per test, closed after it (an `afterEach` of the calling file): for tests of the mock
 * itself and for tests that call it as an upstream. A fixture: never built into dist/.
 */
import { afterEach } from "vitest";
import { startMockProvider, type MockProvider, type MockProviderOptions } from "../mock-server.js";

/** Starts the mock with the options a test names; the file's afterEach closes it. */
export function mockPerTest(): (options?: MockProviderOptions) => Promise<MockProvider> {
  let mock: MockProvider | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });
  return async (options = {}) => {
    mock = await startMockProvider(options);
    return mock;
  };
}
