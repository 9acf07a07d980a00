export {
  createEmbeddingService,
  type EmbeddingService,
  type EmbeddingServiceOptions,
  type EmbeddingProgress,
  type EmbeddingServiceStats,
} from './embedding-service.js';
