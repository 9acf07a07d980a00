/** `strata recall --explain` without --json: the explain report as text a person reads top to bottom. */
import type { RecallExplain } from '../core/recall/types.js';

const f2 = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(2));

export function explainText(explain: RecallExplain): string {
  const out: string[] = [];
  const q = explain.query;
  out.push(
    `query     "${q.cleaned}"${q.removed.length ? ` (removed: ${q.removed.join(', ')})` : ''}${q.truncated ? ' (truncated)' : ''}${q.time ? `; time ${q.time.text}: ${q.time.from.slice(0, 10)}..${q.time.to.slice(0, 10)}` : ''}`,
  );
  out.push(`scopes    ${(explain.filter.scopes ?? []).join(', ') || 'all'}${explain.filter.includeHistory ? ' (history included)' : ''}`);
  const channel = (name: string, c: { used: boolean; hits: number; note?: string }) =>
    `${name} ${c.used ? `${c.hits} hits` : 'not used'}${c.note ? ` (${c.note})` : ''}`;
  out.push(`channels  ${channel('words', explain.channels.lexical)}; ${channel('meaning', explain.channels.vector)}`);
  out.push(`fusion    ${explain.fusion.method}; pool ${explain.candidatePool}, limit ${explain.limit}, min score ${f2(explain.minScore)}`);
  // Rerank is mentioned only when it ran or was asked for.
  if (explain.rerank.applied || explain.rerank.note)
    out.push(
      `rerank    ${explain.rerank.applied ? `${explain.rerank.reranker ?? 'applied'} over the top ${explain.rerank.window}` : 'not applied'}${explain.rerank.note ? ` (${explain.rerank.note})` : ''}`,
    );
  const shown = new Set([explain.rerank.note, explain.channels.lexical.note, explain.channels.vector.note]);
  for (const note of explain.notes) if (!shown.has(note)) out.push(`note      ${note}`);
  const kept = explain.candidates.filter((c) => !c.dropped);
  const dropped = explain.candidates.filter((c) => c.dropped);
  out.push('', kept.length ? 'returned:' : 'returned: none');
  for (const c of kept) {
    out.push(`  #${c.final?.rank ?? '-'} ${c.id} [${c.scope}, ${c.category}] ${c.preview}`);
    out.push(`     ${c.meaning ?? `score ${f2(c.final?.score)}`}`);
    out.push(
      `     words ${c.lexical ? `rank ${c.lexical.rank}, BM25 ${f2(c.lexical.score)}` : '-'}; meaning ${c.vector ? `cosine ${f2(c.vector.score)}` : '-'}${c.rerank ? `; rerank ${f2(c.rerank.score)}` : ''}${c.demoted ? `; demoted (similar to ${c.demoted.similarTo})` : ''}`,
    );
  }
  if (dropped.length > 0) {
    out.push('', 'dropped:');
    for (const c of dropped) out.push(`  ${c.id} [${c.dropped!.stage}] ${c.dropped!.reason}: ${c.preview}`);
  }
  out.push('', explain.scale);
  return out.join('\n') + '\n';
}
