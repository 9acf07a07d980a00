export { createOpenAIEmbedder, type OpenAIEmbedder, type OpenAIEmbedderSettings } from './openai-embedder.js';
export { parseDimensions } from './dimensions.js';
export type { TaskHints, TaskHintSettings } from './task-hints.js';
