export { createJsonlL0Log, JsonlL0Log, type JsonlL0LogOptions } from './jsonl-log.js';
export { fingerprintsOf, sourceKeyOf } from './seen-index.js';
