import type { Command } from 'commander';
import { globals, readScopes, withStrata } from '../context.js';
import { printJson, printTable, shortDate } from '../output.js';
import { collectCategory, parsePositiveInt, parseUnit } from '../parse.js';
import type { MemoryCategory } from '../../spec/memory-record.js';
import { formatContextBlock } from '../../core/recall/context-format.js';

export function registerRecallCommand(program: Command): void {
  program
    .command('recall')
    .description('hybrid search over memories in the caller\'s scopes')
    .argument('<query>')
    .option('--limit <n>', 'results', parsePositiveInt)
    .option('--category <category>', 'filter by category (repeatable)', collectCategory)
    .option('--history', 'include superseded memories')
    .option('--min-score <n>', 'drop results below this score', parseUnit)
    .option('--explain', 'show every stage\'s scores and why candidates were dropped')
    .option('--no-rerank', 'skip the configured reranker')
    .option('--context', 'print the <relevant-memories> block a host would inject')
    .option('--budget <tokens>', 'token budget for --context', parsePositiveInt, 800)
    .action(async (query: string, opts: { limit?: number; category?: MemoryCategory[]; history?: boolean; minScore?: number; explain?: boolean; rerank: boolean; context?: boolean; budget: number }, cmd: Command) => {
      const g = globals(cmd);
      await withStrata(cmd, async (strata) => {
        const result = await strata.recall({
          query,
          scopes: readScopes(strata, g),
          limit: opts.limit ?? strata.config.recall.defaultLimit,
          categories: opts.category,
          includeHistory: opts.history,
          minScore: opts.minScore,
          explain: opts.explain,
          rerank: opts.rerank,
        });
        if (opts.context) {
          process.stdout.write(formatContextBlock({ results: result.results, maxTokens: opts.budget }) + '\n');
          return;
        }
        if (g.json) {
          return printJson({
            query: result.query,
            results: result.results.map((r) => ({
              id: r.record.id,
              text: r.record.text,
              scope: r.record.scope,
              category: r.record.category,
              score: Number(r.score.toFixed(6)),
              scores: r.scores,
              importance: r.record.importance,
              createdAt: r.record.createdAt,
              validFrom: r.record.validFrom,
              validTo: r.record.validTo,
              tags: r.record.tags,
            })),
            ...(opts.explain ? { explain: result.explain } : {}),
          });
        }
        if (result.results.length === 0) process.stdout.write('no matching memories\n');
        else {
          printTable(
            ['#', 'score', 'id', 'scope', 'category', 'date', 'text'],
            result.results.map((r, i) => [i + 1, r.score.toFixed(3), r.record.id, r.record.scope, r.record.category, shortDate(r.record.validFrom), r.record.text]),
          );
        }
        if (opts.explain) {
          process.stdout.write('\nexplain:\n' + JSON.stringify(result.explain, null, 2) + '\n');
        }
      });
    });
}
