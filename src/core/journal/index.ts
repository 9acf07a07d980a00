/**
 * The daily journal: `flushJournal` writes a structured entry per session flush to the day's log,
 * `compileJournal` turns changed day logs into linked knowledge articles, `lintJournal` checks
 * their links. Storage is a JournalStoreV1: files under `<home>/journal/` by default
 * (`FileJournalStore`), or the shared database (src/backends/journal-postgres).
 */
export { DEFAULT_JOURNAL_OPTIONS, journalPaths, type JournalMessage, type JournalOptions, type JournalPaths } from './options.js';
export { flushJournal, type FlushJournalOptions, type FlushJournalResult, type FlushPendingReport, type FlushStatus } from './flush.js';
export { compileJournal, type CompileJournalOptions, type CompileJournalResult } from './compile.js';
export { lintJournal, type LintJournalOptions, type LintJournalResult } from './lint.js';
export { slugify, parseArticle, linksIn, type Article, type ArticleKind } from './articles.js';
export { journalEntrySchema } from './generate.js';
export { FileJournalStore } from './file-store.js';
