export { createTransformersEmbedder, type TransformersEmbedder, type TransformersEmbedderSettings } from './transformers-embedder.js';
export { defaultsForModel, type ModelDefaults, type Pooling } from './known-models.js';
