/** The text of an invalid-config error, shared by the error itself and the CLI's redacting printer. */
/** One problem found in a config file: where, and what was expected. */
export interface ConfigIssue {
  /** Dotted path with array indexes, e.g. `agents.defaults.model.fallbacks[2]`. */
  path: string;
  message: string;
}

/**
 * The message of a ConfigError. `redact` is applied to each path and each message on its own, so a
 * redaction meant for a value never swallows the words around a key such as `headers.Authorization`.
 */
export function configErrorMessage(
  issues: readonly ConfigIssue[],
  source?: string,
  redact: (text: string) => string = (text) => text,
): string {
  const where = source ? ` in ${redact(source)}` : "";
  const lines = issues.map((issue) => `  ${redact(issue.path || "(root)")}: ${redact(issue.message)}`);
  return (
    `Invalid configuration${where} (${issues.length} problem${issues.length === 1 ? "" : "s"}):\n` +
    `${lines.join("\n")}\nFix these keys and start again; nothing was started.`
  );
}
