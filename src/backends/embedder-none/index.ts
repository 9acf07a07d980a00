export { createNoneEmbedder } from './none-embedder.js';
