import type { Command } from 'commander';
import { globals, withOps } from './context.js';
import { printJson, printTable, shortDate } from './output.js';
import { collectCategory, parsePositiveInt, parseUnit } from './parse.js';
import { formatContextBlock } from '../core/recall/context-format.js';
import { formatScore } from '../core/ops/index.js';
import { explainText } from './explain-text.js';
import { printScopeHint } from './scope-hint.js';
import { formatConversationExcerpts } from '../core/recall/conversation/fallback.js';

export function registerRecallCommand(program: Command): void {
  program
    .command('recall')
    .alias('search')
    .description("hybrid search over memories in the caller's scopes")
    .argument('<query>')
    .option('--limit <n>', 'results (default recall.defaultLimit, at most recall.maxLimit)', parsePositiveInt)
    .option('--category <category>', 'filter by category (repeatable)', collectCategory)
    .option('--history', 'include superseded memories')
    .option('--min-score <n>', 'drop results below this score', parseUnit)
    .option('--explain', "show every stage's scores and why candidates were dropped")
    .option('--no-rerank', 'skip the configured reranker')
    .option('--context', 'print the <relevant-memories> block a host would inject')
    .option('--budget <tokens>', 'token budget for --context', parsePositiveInt, 800)
    .option('--no-conversations', 'never add past conversation turns when no memory answers')
    .action(
      async (
        query: string,
        opts: {
          limit?: number;
          category?: string[];
          history?: boolean;
          minScore?: number;
          explain?: boolean;
          rerank: boolean;
          conversations: boolean;
          context?: boolean;
          budget: number;
        },
        cmd: Command,
      ) => {
        const g = globals(cmd);
        await withOps(cmd, async (ops, session) => {
          await printScopeHint(cmd, session, ops.caller);
          // --no-rerank skips the reranker; without it the configured default applies.
          const input = {
            query,
            limit: opts.limit,
            categories: opts.category,
            includeHistory: opts.history,
            minScore: opts.minScore,
            ...(opts.rerank ? {} : { rerank: false }),
            ...(opts.conversations ? {} : { conversations: false }),
          };
          const result = opts.explain ? await ops.run('explain', input) : await ops.run('recall', input);
          // With --history, current memories come first and every row says whether it is current.
          if (opts.history) result.results.sort((a, b) => Number(a.record.validTo !== null) - Number(b.record.validTo !== null));
          const said = result.conversations ?? [];
          if (opts.context) {
            const excerpts = formatConversationExcerpts({
              hits: said.map((c) => ({
                turn: { key: '', speaker: c.speaker, text: c.text, indexedText: c.text, time: Date.parse(c.date) },
                score: c.score,
                scores: { fused: c.score, form: 1, date: 1 },
              })),
              maxTokens: Math.floor(opts.budget / 3),
            });
            process.stdout.write(
              [
                excerpts,
                formatContextBlock({ results: result.results, maxTokens: opts.budget - (excerpts ? Math.ceil(excerpts.length / 4) : 0) }),
              ]
                .filter(Boolean)
                .join('\n') + '\n',
            );
            return;
          }
          if (g.json) return printJson(result);
          if (result.results.length === 0) process.stdout.write('no matching memories\n');
          else {
            const state = (r: (typeof result.results)[number]) =>
              r.record.validTo === null ? 'current' : `until ${shortDate(r.record.validTo)}`;
            printTable(
              ['#', 'score', 'id', 'scope', 'category', 'date', ...(opts.history ? ['state'] : []), 'text'],
              result.results.map((r, i) => [
                i + 1,
                formatScore(r.score),
                r.record.id,
                r.record.scope,
                r.record.category,
                shortDate(r.record.validFrom),
                ...(opts.history ? [state(r)] : []),
                r.record.text,
              ]),
            );
          }
          if (said.length > 0) {
            process.stdout.write('\nfrom past conversations (what was said, not verified memories):\n');
            printTable(
              ['#', 'score', 'source', 'date', 'speaker', 'text'],
              said.map((c, i) => [i + 1, formatScore(c.score), 'conversation', c.date, c.speaker, c.text]),
            );
          }
          if (opts.explain && result.explain) process.stdout.write('\n' + explainText(result.explain));
        });
      },
    );
}
