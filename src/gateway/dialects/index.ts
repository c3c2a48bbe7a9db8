/** Both client-facing dialects of the gateway (R-GW-1, R-GW-2, R-GW-4). */
export * from "./openai/index.js";
export * from "./anthropic/index.js";
export {
  describeDialectIssues,
  formatIssuePath,
  toDialectIssues,
  type DialectIssue,
  type DialectParseResult,
} from "./shared/validation-issues.js";
export { describeStreamError, type StreamErrorDescription } from "./shared/stream-error.js";
export { imageFromUrl, imageToDataUrl } from "./shared/image-source.js";
