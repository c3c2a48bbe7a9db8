/** AWS Bedrock runtime: Claude through InvokeModel, other models through Converse, streams in AWS event-stream framing. */
export { bedrockWire } from "./format.js";
export { BEDROCK_ANTHROPIC_VERSION, isBedrockAnthropicModel } from "./models.js";
export { anthropicEventOfChunk, bedrockChunkMessage, encodeBedrockAnthropicRequest } from "./anthropic-on-bedrock.js";
export { bedrockExceptionFrame, binaryText, createConverseStreamEncoder } from "./converse-stream.js";
export { BEDROCK_EXCEPTION_STATUS, bedrockExceptionForStatus, bedrockExceptionName, describeBedrockError } from "./errors.js";
export { renderConverseResponse } from "./converse-response.js";
export { decodeConverseRequest } from "./converse-request-decode.js";
