/**
 * Knowledge articles (files: `<home>/journal/knowledge/<slug>.md`): a small header of `key: <JSON>` lines
 * between `---` fences (valid YAML front matter that needs no YAML parser), a title and a body
 * with `[[slug]]` links. `index.md` is generated from the articles, never written by the model.
 */
import type { JournalStoreV1 } from '../../spec/journal-store.js';

export const ARTICLE_KINDS = ['concept', 'connection', 'qa'] as const;
export type ArticleKind = (typeof ARTICLE_KINDS)[number];

export interface Article {
  slug: string;
  title: string;
  kind: ArticleKind;
  summary: string;
  /** Day logs (YYYY-MM-DD) the article was compiled from. */
  sources: string[];
  created: string;
  updated: string;
  body: string;
}

/** Names the index and generated files take: never an article. */
const RESERVED = new Set(['index', 'log']);
const MAX_SLUG = 80;

/**
 * A file-safe slug: lower-case ASCII letters, digits and single hyphens. Everything else,
 * including `/`, `.` and `..`, becomes a hyphen, so a slug can never leave the folder.
 */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
  return RESERVED.has(slug) ? `${slug}-article` : slug;
}

const LINK = /\[\[([^\]\n|]+)(?:\|[^\]\n]*)?\]\]/g;

/** Link targets in a text, as slugs (code spans and fences are not links). */
export function linksIn(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?(?:```|$)/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(LINK)].map((m) => slugify(m[1] ?? '')).filter((s) => s.length > 0);
}

/** Rewrites every `[[Target|label]]` to its slug so links resolve to file names. */
export function normaliseLinks(text: string): string {
  return text.replace(LINK, (whole: string, target: string) => {
    const slug = slugify(target);
    const label = whole.includes('|') ? whole.slice(whole.indexOf('|'), -2) : '';
    return slug ? `[[${slug}${label}]]` : whole;
  });
}

export function serializeArticle(article: Article): string {
  const header = ['title', 'kind', 'summary', 'sources', 'created', 'updated'] as const;
  const lines = header.map((k) => `${k}: ${JSON.stringify(article[k])}`);
  return `---\n${lines.join('\n')}\n---\n\n# ${article.title.replace(/\s+/g, ' ').trim()}\n\n${article.body.trim()}\n`;
}

export function parseArticle(slug: string, text: string): Article {
  const fields: Record<string, unknown> = {};
  let body = text;
  const match = /^---\n([\s\S]*?)\n---\n?/.exec(text);
  if (match) {
    for (const line of (match[1] ?? '').split('\n')) {
      const at = line.indexOf(':');
      if (at <= 0) continue;
      const raw = line.slice(at + 1).trim();
      try {
        fields[line.slice(0, at).trim()] = JSON.parse(raw);
      } catch {
        fields[line.slice(0, at).trim()] = raw; // hand-edited plain YAML scalar
      }
    }
    body = text.slice(match[0].length);
  }
  body = body.replace(/^\s*# [^\n]*\n/, '');
  const str = (v: unknown, d: string) => (typeof v === 'string' ? v : d);
  const kind = ARTICLE_KINDS.includes(fields.kind as ArticleKind) ? (fields.kind as ArticleKind) : 'concept';
  return {
    slug,
    title: str(fields.title, slug),
    kind,
    summary: str(fields.summary, ''),
    sources: Array.isArray(fields.sources) ? fields.sources.filter((s): s is string => typeof s === 'string') : [],
    created: str(fields.created, ''),
    updated: str(fields.updated, ''),
    body: body.trim(),
  };
}

/** Every article of the journal store (the index is not one), by slug. */
export async function readArticles(store: JournalStoreV1): Promise<Map<string, { article: Article; text: string }>> {
  const out = new Map<string, { article: Article; text: string }>();
  for (const { slug, text } of await store.readArticles()) out.set(slug, { article: parseArticle(slug, text), text });
  return out;
}

const KIND_TITLES: Record<ArticleKind, string> = { concept: 'Concepts', connection: 'Connections', qa: 'Questions and answers' };

export function renderIndex(articles: Article[]): string {
  const parts = ['# Knowledge index', '', 'Compiled from the daily journal by `strata journal compile`.', ''];
  for (const kind of ARTICLE_KINDS) {
    const list = articles.filter((a) => a.kind === kind).sort((a, b) => a.slug.localeCompare(b.slug));
    if (list.length === 0) continue;
    parts.push(`## ${KIND_TITLES[kind]}`, '');
    for (const a of list)
      parts.push(`- [[${a.slug}]] ${a.title.replace(/\s+/g, ' ')}${a.summary ? ` — ${a.summary.replace(/\s+/g, ' ')}` : ''}`);
    parts.push('');
  }
  return parts.join('\n');
}
