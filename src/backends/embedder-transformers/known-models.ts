/**
 * Pooling and prefixes the model authors prescribe, for the families people use most; anything
 * else gets mean pooling and no prefixes (set `pooling` / `queryPrefix` / `documentPrefix` in config).
 */
export type Pooling = 'mean' | 'cls';

export interface ModelDefaults {
  pooling: Pooling;
  queryPrefix?: string;
  documentPrefix?: string;
}

export function defaultsForModel(model: string): ModelDefaults {
  const name = model.toLowerCase();
  // BAAI bge v1.5 English models: CLS pooling, an instruction before short queries.
  if (/bge-(small|base|large)-en/.test(name))
    return { pooling: 'cls', queryPrefix: 'Represent this sentence for searching relevant passages: ' };
  if (/bge-m3|bge-(small|base|large)-zh/.test(name)) return { pooling: 'cls' };
  // intfloat e5 (incl. multilingual-e5): mean pooling, "query: " / "passage: " prefixes.
  if (/(^|\/)(multilingual-)?e5-/.test(name)) return { pooling: 'mean', queryPrefix: 'query: ', documentPrefix: 'passage: ' };
  return { pooling: 'mean' };
}
