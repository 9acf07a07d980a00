/**
 * Capture in remote mode: this machine reads its own transcripts (cursors stay in its home, so
 * each machine reads each file once), cleans and redacts the messages here, and ships them to
 * the service, which appends them to the shared log and conversation index.
 */
import { ingest, type IngestOptions, type IngestSummary } from '../capture/ingest.js';
import type { OperationsRunner } from '../core/ops/index.js';
import { redactingL0Log } from '../core/write/redacting-l0-log.js';
import { RemoteL0Log } from './remote-l0.js';

export function remoteIngest(options: Omit<IngestOptions, 'log'> & { ops: OperationsRunner; redact?: boolean }): Promise<IngestSummary> {
  const { ops, redact = true, ...rest } = options;
  const log = new RemoteL0Log({ ops });
  // The agent is the token's: transcripts of this machine are filed under it unless the caller names another it holds.
  return ingest({ ...rest, agentId: rest.agentId ?? ops.caller.agentId ?? undefined, log: redact ? redactingL0Log(log) : log });
}
