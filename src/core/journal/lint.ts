/**
 * `lintJournal`: checks the compiled knowledge base. A broken link is a `[[slug]]` (in an article
 * or the index) naming no article; an orphan is an article no other article links to and the
 * index does not list. `ok` is false when either exists (the CLI exits 1).
 */
import type { JournalStoreV1 } from '../../spec/journal-store.js';
import { linksIn, readArticles } from './articles.js';
import { FileJournalStore } from './file-store.js';

export interface LintJournalOptions {
  home: string;
  /** Where the journal lives; default the files under `home`. */
  store?: JournalStoreV1;
}

export interface LintJournalResult {
  ok: boolean;
  articles: number;
  brokenLinks: Array<{ from: string; target: string }>;
  orphans: string[];
  /** The index file is absent (nothing compiled yet, or deleted). */
  missingIndex: boolean;
}

export async function lintJournal(options: LintJournalOptions): Promise<LintJournalResult> {
  const store = options.store ?? new FileJournalStore({ home: options.home });
  const articles = await readArticles(store);
  const index = await store.readIndex();
  const brokenLinks: LintJournalResult['brokenLinks'] = [];
  const inbound = new Set<string>();
  const check = (from: string, text: string) => {
    for (const target of new Set(linksIn(text))) {
      if (!articles.has(target)) brokenLinks.push({ from, target });
      else if (target !== from) inbound.add(target);
    }
  };
  for (const [slug, { article }] of articles) check(slug, article.body);
  if (index !== undefined) check('index', index);
  const orphans = [...articles.keys()].filter((slug) => !inbound.has(slug)).sort();
  return {
    ok: brokenLinks.length === 0 && orphans.length === 0,
    articles: articles.size,
    brokenLinks,
    orphans,
    missingIndex: index === undefined && articles.size > 0,
  };
}
