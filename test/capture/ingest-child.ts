/**
 * Child process for the kill -9 test: ingests one OpenClaw state dir into a Strata home.
 * Prints "ready" just before ingest starts and "chunk <n>" after each L0 append, so the parent can time its kill.
 * Runs ingest repeatedly with a small byte budget (as `strata watch` does on a busy file), so the work
 * spans many batches and cursor commits and a kill lands mid-ingest even on a fast, idle machine.
 */
import { ingestHome as ingest } from './helpers.js';

const [home, root] = process.argv.slice(2);
if (!home || !root) throw new Error('usage: ingest-child <home> <openclaw root>');
process.stdout.write('ready\n');
let added = 0;
const errors: unknown[] = [];
for (;;) {
  const summary = await ingest({
    home,
    sources: [{ kind: 'openclaw', root }],
    maxBytesPerRun: 256 * 1024,
    onRecords: (records) => {
      process.stdout.write(`chunk ${records.length}\n`);
    },
  });
  added += summary.messages.new;
  errors.push(...summary.errors);
  if (summary.bytesRead === 0 && summary.files.deferred === 0) break;
}
process.stdout.write(`${JSON.stringify({ new: added, errors })}\n`);
