import type { Command } from 'commander';
import { createAnthropic } from '../../backends/llm-anthropic/index.js';
import { createOpenAIChat } from '../../backends/llm-openai/index.js';
import { runDistill, type DistillReport } from '../../core/distill/index.js';
import type { EngineContext } from '../../core/engine/context.js';
import { createLlmClient, type LlmClient } from '../../core/llm/index.js';
import { ConfigError } from '../../errors/index.js';
import type { Strata } from '../../strata.js';
import { globals, withStrata } from '../context.js';
import { printJson, printTable } from '../output.js';

/**
 * `strata distill`: one distillation run over the L0 conversation log. LLM settings come from the
 * environment until the config schema has an `llm` section: STRATA_LLM_PROVIDER (openai |
 * anthropic | none), STRATA_LLM_BASE_URL, STRATA_LLM_MODEL, STRATA_LLM_API_KEY_ENV.
 */
export function llmFromEnv(options: { home: string; env?: NodeJS.ProcessEnv }): LlmClient | undefined {
  const env = options.env ?? process.env;
  const provider = (env.STRATA_LLM_PROVIDER ?? 'none').trim().toLowerCase();
  if (provider === 'none' || provider === '') return undefined;
  const model = env.STRATA_LLM_MODEL?.trim();
  if (!model) {
    throw new ConfigError({ field: 'STRATA_LLM_MODEL', message: `STRATA_LLM_PROVIDER is ${provider} but STRATA_LLM_MODEL is not set: set it to the model name (e.g. gpt-4o-mini, qwen2.5:7b).` });
  }
  const common = { baseURL: env.STRATA_LLM_BASE_URL || undefined, model, apiKeyEnv: env.STRATA_LLM_API_KEY_ENV || undefined };
  let llm;
  if (provider === 'openai') llm = createOpenAIChat(common);
  else if (provider === 'anthropic') llm = createAnthropic(common);
  else throw new ConfigError({ field: 'STRATA_LLM_PROVIDER', message: `Unknown STRATA_LLM_PROVIDER ${JSON.stringify(provider)}: use openai (any OpenAI-compatible server), anthropic or none.` });
  return createLlmClient({ llm, usageLog: { home: options.home } });
}

/**
 * The engine context of an open Strata. Temporary: `MemoryEngine.ctx` is protected; once the
 * engine exposes `distill` / `history` / `revert` methods, the commands call those instead.
 */
export function engineContextOf(strata: Strata): EngineContext {
  return (strata as unknown as { ctx: EngineContext }).ctx;
}

function printReport(report: DistillReport): void {
  const out = (line: string) => process.stdout.write(line + '\n');
  out(`${report.dryRun ? 'dry run (nothing written)' : 'distilled'} with ${report.mode === 'llm' ? 'LLM extraction' : 'rule-based capture (no LLM configured)'}`);
  out(`messages: ${report.messages.read} read, ${report.messages.distilled} distilled, ${report.messages.pending} pending`);
  out(`candidates: ${report.candidates}, admitted: ${report.admitted}, rejected: ${report.rejected.total}`);
  const decisions = Object.entries(report.decisions).filter(([, n]) => n > 0);
  if (decisions.length > 0) printTable(['decision', 'count'], decisions);
  const reasons = Object.entries(report.rejected.byReason);
  if (reasons.length > 0) printTable(['rejected', 'count'], reasons.map(([r, n]) => [r, n ?? 0]));
  if (report.mode === 'llm') {
    out(`LLM: ${report.llmCalls} call(s), ${report.tokens.input} in + ${report.tokens.output} out tokens, cost ${report.cost === null ? 'unknown (no price)' : `$${report.cost.toFixed(4)}`}`);
  }
  if (report.budget.exhausted) out(`budget spent (${report.budget.limit})${report.budget.resumeAt ? `; resumes after ${report.budget.resumeAt}` : ''}: pending messages wait for the next run`);
  for (const e of report.errors) out(`error in ${e.stage} (${e.sessionKey}): [${e.code}] ${e.message}`);
}

export function registerDistillCommands(program: Command): void {
  program
    .command('distill')
    .description('turn new conversation (the L0 log) into memories once; reports decisions, tokens and cost (use the global --agent to limit to one agent)')
    .option('--dry-run', 'decide but write nothing (LLM calls still happen and are counted)')
    .action(async (opts: { dryRun?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      await withStrata(cmd, async (strata) => {
        const report = await runDistill({
          ctx: engineContextOf(strata),
          home: strata.home,
          llm: llmFromEnv({ home: strata.home }),
          agentId: g.agent,
          dryRun: opts.dryRun,
          lockTimeoutMs: 30_000,
        });
        if (g.json) return printJson(report);
        printReport(report);
        if (report.errors.length > 0) process.exitCode = 1;
      });
    });
}
