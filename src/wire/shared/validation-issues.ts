/**
 * Turns zod issues into `{ path, message }` pairs with readable paths (`messages[2].content`) for the
 * 400 answers of R-GW-4. Unions are resolved to the branch the input came closest to, so a wrong array
 * element is reported inside the array instead of as "Invalid input" on the whole field.
 */
import type { z } from "zod";

export interface DialectIssue {
  /** `messages[2].content[0].type`; `(body)` for the request body itself. */
  path: string;
  message: string;
}

type Issue = z.core.$ZodIssue;
type PathSegment = PropertyKey;

export function formatIssuePath(path: readonly PathSegment[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else text += text === "" ? String(segment) : `.${String(segment)}`;
  }
  return text === "" ? "(body)" : text;
}

/** How far into the input a union branch got before failing: deeper paths mean a closer match. */
function branchDepth(issues: readonly Issue[]): number {
  let depth = 0;
  for (const issue of issues) {
    const isTypeMismatchAtRoot = issue.code === "invalid_type" && issue.path.length === 0;
    depth = Math.max(depth, isTypeMismatchAtRoot ? 0 : issue.path.length + 1);
  }
  return depth;
}

function flatten(issue: Issue, prefix: readonly PathSegment[]): DialectIssue[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    let best: readonly Issue[] = issue.errors[0] ?? [];
    for (const branch of issue.errors) if (branchDepth(branch) > branchDepth(best)) best = branch;
    if (branchDepth(best) > 0) return best.flatMap((inner) => flatten(inner, path));
    const expected = issue.errors.flatMap((branch) =>
      branch.flatMap((inner) => (inner.code === "invalid_type" ? [String(inner.expected)] : [])),
    );
    if (expected.length > 0) {
      return [{ path: formatIssuePath(path), message: `Invalid input: expected ${[...new Set(expected)].join(" or ")}` }];
    }
  }
  return [{ path: formatIssuePath(path), message: issue.message }];
}

export function toDialectIssues(issues: readonly Issue[]): DialectIssue[] {
  return issues.flatMap((issue) => flatten(issue, []));
}

/** One line for error messages: `messages[2].content: Invalid input; model: Required`. */
export function describeDialectIssues(issues: readonly DialectIssue[]): string {
  return issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
}

export type DialectParseResult<Extra> = ({ ok: true } & Extra) | { ok: false; issues: DialectIssue[] };
