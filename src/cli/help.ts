/** Every command's `--help` ends with an Examples section (R-CL-1): one place formats it. */
import type { Command } from "commander";

export function withExamples(command: Command, examples: readonly string[]): Command {
  const lines = examples.map((example) => (example.startsWith("#") ? `  ${example}` : `  $ ${example}`));
  return command.addHelpText("after", `\nExamples:\n${lines.join("\n")}\n`);
}
