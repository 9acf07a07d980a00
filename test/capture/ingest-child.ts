/**
 * Child process for the kill -9 test: ingests one OpenClaw state dir into a Strata home.
 * Prints "ready" just before ingest starts and "chunk <n>" after each L0 append, so the parent can time its kill.
 */
import { ingest } from '../../src/capture/ingest.js';

const [home, root] = process.argv.slice(2);
if (!home || !root) throw new Error('usage: ingest-child <home> <openclaw root>');
process.stdout.write('ready\n');
const summary = await ingest({
  home,
  sources: [{ kind: 'openclaw', root }],
  onRecords: (records) => {
    process.stdout.write(`chunk ${records.length}\n`);
  },
});
process.stdout.write(`${JSON.stringify({ new: summary.messages.new, errors: summary.errors })}\n`);
