export { createLlmClient, type LlmClient, type LlmClientOptions, type LlmClientGenerateOptions } from './llm-client.js';
export { generateObject, jsonSchemaOf, type GenerateObjectOptions, type GenerateObjectResult } from './generate-object.js';
export { LlmOutputError } from './llm-output-error.js';
export { extractJsonText, parseJsonLoose } from './json-text.js';
export { Semaphore } from './semaphore.js';
export { appendUsage, costOf, summarizeUsage, usageLogPath, type LlmUsageEntry, type UsageSummary, type UsageTotals } from './usage-log.js';
