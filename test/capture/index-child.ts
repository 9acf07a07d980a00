/**
 * Child process for the kill -9 index test: ingests one OpenClaw state dir through the capture
 * pipeline `Strata` uses (L0 append, then conversation index catch-up), wired here without the
 * memory store and config so a process starts fast enough for hundreds of kills. Ingests in small
 * budgeted runs until nothing is left. Prints `behind <n>` (log entries the index lacks, left by
 * the previous life), `ready`, `appended` after each L0 append and `indexed` after each run, so the
 * parent can time its kill into either step or the gap between them.
 */
import { createLanceConversationIndex } from '../../src/backends/conversation-lancedb/index.js';
import { createJsonlL0Log } from '../../src/backends/l0-jsonl/index.js';
import { CapturePipeline } from '../../src/capture/pipeline.js';
import { ConversationIndexer } from '../../src/core/conversations/indexer.js';

const [home, root] = process.argv.slice(2);
if (!home || !root) throw new Error('usage: index-child <home> <openclaw root>');
const l0 = createJsonlL0Log({ home });
const index = createLanceConversationIndex({ dir: `${home}/conversations/index` });
const indexer = new ConversationIndexer({ l0, index, embedderId: 'none', dimensions: 0 });
const pipeline = new CapturePipeline({ home, l0, indexer: async () => indexer });
process.stdout.write(`behind ${(await indexer.status()).behind}\nready\n`);
for (;;) {
  const summary = await pipeline.ingest({
    sources: [{ kind: 'openclaw', root }],
    maxBytesPerRun: 8 * 1024,
    sqlite: false,
    onRecords: () => void process.stdout.write('appended\n'),
  });
  process.stdout.write('indexed\n');
  if (summary.errors.length > 0) throw new Error(JSON.stringify(summary.errors));
  if (summary.bytesRead === 0 && summary.files.deferred === 0) break;
}
await index.close();
process.stdout.write('done\n');
