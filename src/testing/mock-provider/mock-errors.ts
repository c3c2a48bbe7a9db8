/** Errors of starting the mock provider, each with a stable code and what to do about it. */
import { ERROR_CODES, DetourError } from "../../core/errors.js";

/** Another process already listens on the port the mock provider was asked to bind. */
export class MockProviderPortInUseError extends DetourError {
  readonly code = ERROR_CODES.mockPortInUse;
  readonly host: string;
  readonly port: number;
  constructor(host: string, port: number, cause: unknown) {
    super(
      `Port ${port} on ${host} is already in use (another mock provider, or another program). Stop it, or start ` +
        `the mock provider on another port with \`detour mock-provider --port <port>\` (the \`port\` option from code; 0 picks a free port).`,
      { cause },
    );
    this.host = host;
    this.port = port;
  }
}
