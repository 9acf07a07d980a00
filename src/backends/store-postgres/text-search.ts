import type pg from 'pg';
import { InvalidArgumentError } from '../../errors/index.js';
import { ident, type Params } from './sql.js';

/**
 * Full-text search with a configurable PostgreSQL text-search configuration (default `english`).
 *
 * Indexing keeps every word: for a Snowball language Strata creates `<schema>.strata_<lang>`, the
 * built-in configuration with the stemmer's stop list removed, so no word is unfindable. Queries
 * drop the language's stop words (the built-in configuration's list) unless nothing else is left
 * ("who is it" still searches). Any other configuration name (`simple`, your own
 * `myschema.myconfig`) is used as it is for both.
 *
 * Scores are Okapi BM25 (k1 1.2, b 0.75, Lucene's idf ln(1 + (N - df + 0.5) / (df + 0.5))) over
 * the query's distinct lexemes, with N, df and the average length counted over every row of the
 * store (all scopes, history included) from trigger-maintained statistics, and term frequency and
 * length from the row's tsvector positions. `ts_rank` is not used: it has no idf, so "my" would
 * weigh as much as "espresso".
 */
export interface TextSearchConfigs {
  /** Configuration the tsvector is built with. */
  index: string;
  /** Configuration whose output decides which query words are content words. */
  query: string;
}

export const K1 = 1.2;
export const B = 0.75;

export async function ensureTextSearch(client: pg.ClientBase, schema: string, name: string): Promise<TextSearchConfigs> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/.test(name)) {
    throw new InvalidArgumentError({ argument: 'textSearch', message: `Invalid text-search configuration name ${JSON.stringify(name)}.` });
  }
  const s = ident(schema);
  const snowball = name.includes('.')
    ? null
    : await client.query(
        `SELECT 1 FROM pg_ts_config c JOIN pg_namespace n ON n.oid = c.cfgnamespace
       JOIN pg_ts_dict d ON d.dictname = $1 || '_stem' AND d.dictnamespace = n.oid
       WHERE n.nspname = 'pg_catalog' AND c.cfgname = $1`,
        [name],
      );
  if (!snowball?.rowCount) {
    const [nsp, cfg] = name.includes('.') ? name.split('.') : [null, name];
    const exists = await client.query(
      `SELECT 1 FROM pg_ts_config c JOIN pg_namespace n ON n.oid = c.cfgnamespace
      WHERE c.cfgname = $2 AND (($1::text IS NULL AND pg_ts_config_is_visible(c.oid)) OR n.nspname = $1)`,
      [nsp, cfg],
    );
    if (!exists.rowCount) {
      throw new InvalidArgumentError({
        argument: 'textSearch',
        message: `PostgreSQL has no text-search configuration ${JSON.stringify(name)}; see SELECT cfgname FROM pg_ts_config (e.g. english, simple).`,
      });
    }
    return { index: name, query: name };
  }
  const config = `strata_${name}`;
  const found = await client.query(
    'SELECT 1 FROM pg_ts_config c JOIN pg_namespace n ON n.oid = c.cfgnamespace WHERE n.nspname = $1 AND c.cfgname = $2',
    [schema, config],
  );
  if (!found.rowCount) {
    const dict = ident(`${config}_stem`);
    await client.query(
      `CREATE TEXT SEARCH DICTIONARY ${s}.${dict} (TEMPLATE = pg_catalog.snowball, Language = ${ident(name).slice(1, -1)})`,
    );
    await client.query(`CREATE TEXT SEARCH CONFIGURATION ${s}.${ident(config)} (COPY = pg_catalog.${ident(name)})`);
    await client.query(
      `ALTER TEXT SEARCH CONFIGURATION ${s}.${ident(config)} ALTER MAPPING REPLACE pg_catalog.${ident(`${name}_stem`)} WITH ${s}.${dict}`,
    );
  }
  return { index: `${s}.${ident(config)}`, query: `pg_catalog.${ident(name)}` };
}

/**
 * For an INSERT ... SELECT over recordset alias `r`: a lateral `f.tsv` of `r.text`, and the
 * matching token count (`doc_len`, BM25's document length).
 */
export function tsvLateral(s: string, config: string, p: Params): { join: string; docLen: string } {
  return {
    join: `CROSS JOIN LATERAL (SELECT to_tsvector(${p.add(config, 'regconfig')}, ${s}.fts_text(r.text, false)) AS tsv) f`,
    docLen: '(SELECT coalesce(sum(coalesce(array_length(u.positions, 1), 1)), 0) FROM unnest(f.tsv) u)',
  };
}

export interface QueryTerm {
  lexeme: string;
  df: number;
  idf: number;
}

/** The query's distinct search lexemes with their document frequency and idf, plus avgdl. */
export function queryTermsSql(options: {
  s: string;
  configs: TextSearchConfigs;
  query: string;
  p: Params;
  /** Another component's statistics and CJK function (default: the memory store's). */
  tables?: { terms: string; stats: string; ftsText: string };
}): string {
  const { s, configs, p } = options;
  const tables = options.tables ?? { terms: 'memory_terms', stats: 'memory_doc_stats', ftsText: 'fts_text' };
  return `WITH q AS (SELECT ${s}.${ident(tables.ftsText)}(${p.add(options.query)}, true) AS t),
  all_terms AS (SELECT DISTINCT u.lexeme FROM q, unnest(to_tsvector(${p.add(configs.index, 'regconfig')}, q.t)) u),
  content_terms AS (SELECT DISTINCT u.lexeme FROM q, unnest(to_tsvector(${p.add(configs.query, 'regconfig')}, q.t)) u),
  terms AS (SELECT lexeme FROM content_terms UNION SELECT lexeme FROM all_terms WHERE NOT EXISTS (SELECT 1 FROM content_terms)),
  stats AS (SELECT greatest(docs, 1)::float8 AS n, greatest(total_len::float8 / greatest(docs, 1), 1) AS avgdl FROM ${s}.${ident(tables.stats)})
  SELECT w.lexeme, w.df, ln(1 + (st.n - w.df + 0.5) / (w.df + 0.5)) AS idf, st.avgdl
  FROM terms JOIN ${s}.${ident(tables.terms)} w ON w.lexeme = terms.lexeme AND w.df > 0 CROSS JOIN stats st`;
}

/** A BM25 term contribution never exceeds idf * (k1 + 1), whatever tf and length. */
export const upperBound = (t: QueryTerm): number => t.idf * (K1 + 1);

/** tsquery text for "any of these lexemes" (quoted per the tsquery input syntax), from a text[] parameter. */
const ANY_OF = (param: string) =>
  `(SELECT string_agg('''' || replace(replace(c, '\\', '\\\\'), '''', '''''') || '''', ' | ')::tsquery FROM unnest(${param}) c)`;

/**
 * `id, score` of the best `limit` rows under `where` (conditions over alias `m`) that contain
 * one of `candidates`, scored by BM25 over all `terms`, best first, ties by id. Scores are
 * rounded to 1e-9 so that summation order (which differs between plans) cannot reorder ties.
 */
export function bm25Sql(options: {
  s: string;
  table: string;
  terms: readonly QueryTerm[];
  candidates: readonly string[];
  avgdl: number;
  where: string;
  limit: number;
  p: Params;
}): string {
  const { s, p } = options;
  const lexemes = p.add(
    options.terms.map((x) => x.lexeme),
    'text[]',
  );
  const idfs = p.add(
    options.terms.map((x) => x.idf),
    'float8[]',
  );
  const avgdl = p.add(options.avgdl, 'float8');
  return `WITH weighted AS (SELECT * FROM unnest(${lexemes}, ${idfs}) AS w(lexeme, idf)),
  tsq AS (SELECT ${ANY_OF(p.add(options.candidates, 'text[]'))} AS tsq)
  SELECT m.id, round(sum(w.idf * (x.tf * ${K1 + 1}) / (x.tf + ${K1} * (${1 - B} + ${B} * m.doc_len / ${avgdl})))::numeric, 9)::float8 AS score
  FROM tsq, ${s}.${ident(options.table)} m
  CROSS JOIN LATERAL (SELECT u.lexeme, coalesce(array_length(u.positions, 1), 1)::float8 AS tf FROM unnest(m.tsv) u) x
  JOIN weighted w ON w.lexeme = x.lexeme
  WHERE m.tsv @@ tsq.tsq AND ${options.where}
  GROUP BY m.id
  ORDER BY score DESC, m.id
  LIMIT ${p.add(options.limit, 'int')}`;
}

/**
 * Candidate sets for a top-k search, MaxScore style: start with the rarest terms (few rows to
 * score) and widen. A pass is exact when it found `limit` rows and its k-th score is at least the
 * summed upper bounds of the terms left out: a row holding only those cannot score higher. The
 * last pass uses every term, so the result is always the exact BM25 top k.
 */
export function candidatePasses(terms: readonly QueryTerm[]): Array<{ candidates: string[]; leftOutBound: number }> {
  const byDf = [...terms].sort((a, b) => a.df - b.df || a.lexeme.localeCompare(b.lexeme));
  const passes: Array<{ candidates: string[]; leftOutBound: number }> = [];
  let budget = 2000;
  let taken = 0;
  let rows = 0;
  while (taken < byDf.length) {
    do rows += byDf[taken++]!.df;
    while (taken < byDf.length && rows + byDf[taken]!.df <= budget);
    const leftOut = byDf.slice(taken);
    passes.push({
      candidates: byDf.slice(0, taken).map((x) => x.lexeme),
      leftOutBound: leftOut.reduce((sum, x) => sum + upperBound(x), 0),
    });
    budget *= 8;
  }
  return passes;
}
