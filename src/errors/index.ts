export { StrataError, type StrataErrorCode, type StrataErrorOptions } from './strata-error.js';
export { InvalidArgumentError } from './invalid-argument-error.js';
export { ConfigError } from './config-error.js';
export { StorageError } from './storage-error.js';
export { NotFoundError } from './not-found-error.js';
export { ProviderCallError } from './provider-call-error.js';
export { RetryError } from './retry-error.js';
export { LayerConflictError } from './layer-conflict-error.js';
