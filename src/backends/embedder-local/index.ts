export { createLocalEmbedder, type LocalEmbedder, type LocalEmbedderSettings, type LocalEmbedderState } from './local-embedder.js';
