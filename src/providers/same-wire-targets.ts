/**
 * Which providers the same-wire lane (SPEC R-GW-6) can call with a client's bytes, and how: a built-in
 * provider whose wire format has a lane is called at its own endpoint (URL, auth, signing) with its format's
 * error reader. Injected providers (test doubles, custom adapters) keep their own behaviour: the canonical path.
 */
import type { Credential } from "../core/types.js";
import type { Provider } from "../ports/provider.js";
import type { WireFormat } from "../wire/formats.js";
import { HttpProvider } from "./http-provider.js";
import type { PassThroughTarget } from "./shared/pass-through-call.js";
import { passThroughTargetOf } from "./shared/provider-quirks.js";
import type { ProviderSettings } from "./shared/provider-settings.js";

/** A provider the lane can call raw: its wire format, and the call for one attempt. */
export interface SameWireTarget {
  readonly wire: WireFormat;
  target(
    credential: Credential | undefined,
    stream: boolean,
    clientHeaders: Readonly<Record<string, string>> | undefined,
    model: string,
  ): PassThroughTarget;
}

/** `settings` as resolved for `provider`; undefined when the lane cannot call it raw. */
export function sameWireTargetOf(provider: Provider, settings: ProviderSettings): SameWireTarget | undefined {
  if (!(provider instanceof HttpProvider) || !provider.wire.lane) return undefined;
  const wire = provider.wire;
  // The provider's own endpoint: the lane's call goes where the canonical one goes, signed the same way. A
  // cloud's deployments, project and token source are the provider's own, whatever the caller resolved.
  const endpoint = provider.quirks.endpoint({ ...provider.cloudSettings, ...settings });
  return {
    wire,
    target: (credential, stream, client, model) =>
      passThroughTargetOf(settings, endpoint, wire.errors.read, {
        url: endpoint.url(model, stream),
        credential,
        stream,
        ...(client ? { client } : {}),
      }),
  };
}
