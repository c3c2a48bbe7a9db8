/**
 * Every place of the config that holds a model reference a run may ask for (R-CF-3): the default
 * selection, the heartbeat, each agent's selection and heartbeat, and cron payloads. One walker, so the
 * validation of the raw file and the reading of bare names after parsing can never disagree on where
 * model references live. Reads are defensive: the raw file may be partly invalid.
 */

type Path = PropertyKey[];

/** Called for each model reference; `replace` writes a new value in its place (parsed configs only). */
export type ModelRefVisitor = (value: unknown, path: Path, replace: (next: string) => void) => void;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function child(value: unknown, key: string): unknown {
  return isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

function items(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function visitField(holder: unknown, key: string, path: Path, visit: ModelRefVisitor): void {
  if (!isRecord(holder) || !Object.hasOwn(holder, key)) return;
  visit(holder[key], [...path, key], (next) => {
    holder[key] = next;
  });
}

function visitList(list: unknown, path: Path, visit: ModelRefVisitor): void {
  items(list).forEach((entry, index) => {
    visit(entry, [...path, index], (next) => {
      (list as unknown[])[index] = next;
    });
  });
}

/** A selection is a model reference, or `{ primary, fallbacks }`. */
function visitSelection(holder: unknown, key: string, path: Path, visit: ModelRefVisitor): void {
  const selection = child(holder, key);
  if (typeof selection === "string") return visitField(holder, key, path, visit);
  visitField(selection, "primary", [...path, key], visit);
  visitList(child(selection, "fallbacks"), [...path, key, "fallbacks"], visit);
}

export function visitModelRefs(config: unknown, visit: ModelRefVisitor): void {
  const defaults = child(child(config, "agents"), "defaults");
  visitSelection(defaults, "model", ["agents", "defaults"], visit);
  visitField(child(defaults, "heartbeat"), "model", ["agents", "defaults", "heartbeat"], visit);
  items(child(child(config, "agents"), "list")).forEach((agent, index) => {
    visitSelection(agent, "model", ["agents", "list", index], visit);
    visitField(child(agent, "heartbeat"), "model", ["agents", "list", index, "heartbeat"], visit);
  });
  items(child(child(config, "cron"), "jobs")).forEach((job, index) => {
    const payload = child(job, "payload");
    const path = ["cron", "jobs", index, "payload"];
    visitField(payload, "model", path, visit);
    visitList(child(payload, "fallbacks"), [...path, "fallbacks"], visit);
  });
}

/** `agents.defaults.models` keys and `models.providers.<id>.models[].id`, as `provider/model`. */
export function declaredModelRefs(config: unknown): string[] {
  const allowlist = child(child(child(config, "agents"), "defaults"), "models");
  const allowed = isRecord(allowlist) ? Object.keys(allowlist) : [];
  const providers = child(child(config, "models"), "providers");
  const declared = isRecord(providers)
    ? Object.entries(providers).flatMap(([provider, settings]) =>
        items(child(settings, "models")).flatMap((model) => {
          const id = child(model, "id");
          return typeof id === "string" && id !== "" ? [`${provider}/${id}`] : [];
        }),
      )
    : [];
  return [...allowed, ...declared];
}
