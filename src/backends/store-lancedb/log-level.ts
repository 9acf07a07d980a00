/**
 * LanceDB's native logger reads LANCEDB_LOG when the module loads and otherwise prints
 * deprecation warnings to stderr on every query. ESM evaluates imports in order, so this module
 * must be imported before `@lancedb/lancedb` anywhere in this backend.
 */
process.env.LANCEDB_LOG ??= 'error';
export {};
