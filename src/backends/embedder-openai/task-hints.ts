import type { EmbedKind } from '../../spec/index.js';

/**
 * How query/document intent reaches the model. Asymmetric models embed a question and a passage
 * differently; symmetric ones ('none') ignore the kind.
 * - 'jina': Jina's `task` field (`retrieval.query` / `retrieval.passage`).
 * - 'e5': text prefixes `query: ` / `passage: ` (e5, bge-m3 style).
 * - 'nomic': text prefixes `search_query: ` / `search_document: ` (nomic-embed-text).
 * - 'prefix': the configured `queryPrefix` / `documentPrefix`.
 */
export type TaskHints = 'none' | 'jina' | 'e5' | 'nomic' | 'prefix';

export interface TaskHintSettings {
  taskHints?: TaskHints;
  queryPrefix?: string;
  documentPrefix?: string;
  /** Overrides for the body `task` field with taskHints 'jina'. */
  queryTask?: string;
  documentTask?: string;
}

export interface ResolvedTaskHints {
  mode: TaskHints;
  apply(options: { texts: string[]; kind: EmbedKind }): { input: string[]; task?: string };
}

const PREFIXES: Record<'e5' | 'nomic', { query: string; document: string }> = {
  e5: { query: 'query: ', document: 'passage: ' },
  nomic: { query: 'search_query: ', document: 'search_document: ' },
};

export function resolveTaskHints(settings: TaskHintSettings): ResolvedTaskHints {
  const explicitPrefix = settings.queryPrefix !== undefined || settings.documentPrefix !== undefined;
  const mode: TaskHints = settings.taskHints ?? (explicitPrefix ? 'prefix' : 'none');
  if (mode === 'jina') {
    const tasks = { query: settings.queryTask ?? 'retrieval.query', document: settings.documentTask ?? 'retrieval.passage' };
    return { mode, apply: ({ texts, kind }) => ({ input: texts, task: tasks[kind] }) };
  }
  if (mode === 'none') return { mode, apply: ({ texts }) => ({ input: texts }) };
  const preset = mode === 'prefix' ? { query: '', document: '' } : PREFIXES[mode];
  const prefixes = { query: settings.queryPrefix ?? preset.query, document: settings.documentPrefix ?? preset.document };
  return { mode, apply: ({ texts, kind }) => ({ input: texts.map((t) => prefixes[kind] + t) }) };
}
