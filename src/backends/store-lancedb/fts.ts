import * as lancedb from '@lancedb/lancedb';
import { ENGLISH_STOP_WORDS } from '../../util/stop-words.js';

export { ENGLISH_STOP_WORDS };

/**
 * Bump when the tokenizer settings change: stores record the version their index was built with
 * and rebuild the index when it differs (see `ensureFtsIndex`).
 * v1 (unrecorded): icu + English stemming + LanceDB's multilingual stop words.
 * v2: icu + English stemming + ENGLISH_STOP_WORDS.
 */
export const FTS_INDEX_VERSION = 2;

/**
 * ICU segmentation finds Chinese and Japanese words (no model download, unlike jieba/lindera);
 * English stemming lets "preferences" match "prefer" and leaves CJK tokens alone. Positions are
 * kept for phrase queries.
 */
export function ftsIndexConfig(): lancedb.Index {
  return lancedb.Index.fts({
    baseTokenizer: 'icu',
    stem: true,
    language: 'English',
    lowercase: true,
    withPosition: true,
    removeStopWords: true,
    customStopWords: [...ENGLISH_STOP_WORDS],
  });
}
