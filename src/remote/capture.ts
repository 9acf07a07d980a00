/**
 * Capture in remote mode: this machine reads its own transcripts, or takes the live snapshots its
 * host hands over (cursors stay in its home, so each message is considered once), cleans and redacts
 * the messages here, and ships them to the service, which appends them to the shared log and
 * conversation index.
 */
import { ingest, type IngestOptions, type IngestSummary } from '../capture/ingest.js';
import { capture, type CaptureOptions, type CaptureResult } from '../capture/live.js';
import type { OperationsRunner } from '../core/ops/index.js';
import { redactingL0Log } from '../core/write/redacting-l0-log.js';
import type { L0LogV1 } from '../spec/l0-log.js';
import { RemoteL0Log } from './remote-l0.js';

interface RemoteTarget {
  ops: OperationsRunner;
  /** Redact here, before anything leaves the machine (default true). */
  redact?: boolean;
}

function remoteLog({ ops, redact = true }: RemoteTarget): L0LogV1 {
  const log = new RemoteL0Log({ ops });
  return redact ? redactingL0Log(log) : log;
}

export function remoteIngest(options: Omit<IngestOptions, 'log'> & RemoteTarget): Promise<IngestSummary> {
  const { ops, redact, ...rest } = options;
  // The agent is the token's: transcripts of this machine are filed under it unless the caller names another it holds.
  return ingest({ ...rest, agentId: rest.agentId ?? ops.caller.agentId ?? undefined, log: remoteLog({ ops, redact }) });
}

/** A live snapshot (the whole session, as a host hook passes it) into the service's log. */
export function remoteCapture(options: Omit<CaptureOptions, 'log'> & RemoteTarget): Promise<CaptureResult> {
  const { ops, redact, ...rest } = options;
  return capture({ ...rest, log: remoteLog({ ops, redact }) });
}
