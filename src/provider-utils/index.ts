export { retryWithBackoff, isAbortError, abortErrorFrom, type RetryOptions } from './retry.js';
export { postJson, type PostJsonOptions, type PostJsonResult } from './post-json.js';
export { loadApiKey, loadOptionalSetting, withoutTrailingSlash, validateBaseURL } from './load-setting.js';
