/**
 * Prototype conversation-turn index for the benchmark's conversation path: one LanceDB row per
 * turn (own words, index text from core's buildTurnIndexText, session time, embedding of the own
 * words), the store's full-text tokenizer on the index text. It stands in for the storage-only
 * conversation index until that lands; search and fusion are core's (searchConversationTurns).
 */
import * as lancedb from '@lancedb/lancedb';
import * as arrow from 'apache-arrow';
import { ftsIndexConfig } from '../../src/backends/store-lancedb/fts.js';
import type { IndexedTurn, TurnHit, TurnSearchSource } from '../../src/core/recall/conversation/search.js';

export interface BenchTurn extends IndexedTurn {
  conversation: string;
  /** The LoCoMo dia_id, when known. */
  messageId: string;
  vector: number[] | null;
}

const sql = (s: string) => `'${s.replaceAll("'", "''")}'`;

export async function createTurnIndex(options: { dir: string; turns: BenchTurn[]; dimensions: number }) {
  const db = await lancedb.connect(options.dir);
  const { dimensions } = options;
  const fields = [
    new arrow.Field('key', new arrow.Utf8()), new arrow.Field('conversation', new arrow.Utf8()), new arrow.Field('message_id', new arrow.Utf8()),
    new arrow.Field('speaker', new arrow.Utf8()), new arrow.Field('text', new arrow.Utf8()), new arrow.Field('indexed', new arrow.Utf8()),
    new arrow.Field('time', new arrow.Float64()),
    ...(dimensions > 0 ? [new arrow.Field('vector', new arrow.FixedSizeList(dimensions, new arrow.Field('item', new arrow.Float32(), true)), true)] : []),
  ];
  const rows = options.turns.map((t) => ({
    key: t.key, conversation: t.conversation, message_id: t.messageId, speaker: t.speaker, text: t.text, indexed: t.indexedText, time: t.time,
    ...(dimensions > 0 ? { vector: t.vector } : {}),
  }));
  const table = await db.createTable('turns', lancedb.makeArrowTable(rows, { schema: new arrow.Schema(fields) }));
  await table.createIndex('indexed', { config: ftsIndexConfig() });
  const columns = ['key', 'conversation', 'message_id', 'speaker', 'text', 'indexed', 'time', ...(dimensions > 0 ? ['vector'] : [])];
  const toHits = (rows: Array<Record<string, unknown>>, score: (r: Record<string, unknown>) => number): Array<TurnHit<BenchTurn>> =>
    rows.map((r) => {
      const vector = r.vector ? Array.from(r.vector as ArrayLike<number>) : null;
      return {
        turn: {
          key: String(r.key), conversation: String(r.conversation), messageId: String(r.message_id), speaker: String(r.speaker),
          text: String(r.text), indexedText: String(r.indexed), time: Number(r.time), vector,
        },
        score: score(r),
        vector,
      };
    });

  return {
    /** A search source limited to one conversation (as a caller is limited to its agents). */
    source(conversation: string): TurnSearchSource<BenchTurn> {
      const where = `conversation = ${sql(conversation)}`;
      return {
        async searchText({ query, limit }) {
          const rows = await table.query().fullTextSearch(new lancedb.MatchQuery(query, 'indexed')).where(where).select([...columns, '_score']).limit(limit).toArray();
          return toHits(rows, (r) => Number(r._score));
        },
        ...(dimensions > 0
          ? {
              async searchVector({ vector, limit }: { vector: number[]; limit: number }) {
                const rows = await table.query().nearestTo(vector).distanceType('cosine').where(where).select([...columns, '_distance']).limit(limit).toArray();
                return toHits(rows, (r) => 1 - Number(r._distance));
              },
            }
          : {}),
      };
    },
    close: () => table.close(),
  };
}
