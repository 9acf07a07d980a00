/**
 * The L0 log of a remote service, as transcript capture on this machine sees it: `append` ships
 * the cleaned (and here already redacted) records to the service's `capture` operation in
 * batches; the service's log drops what it already holds, so a batch resent after a lost answer
 * (or a cursor that did not advance) adds nothing. Reading the log stays on the service.
 */
import { StrataError } from '../errors/index.js';
import { CAPTURE_BATCH_MAX } from '../core/ops/capture-ops.js';
import type { OperationsRunner } from '../core/ops/index.js';
import type { L0Record } from '../spec/conversation.js';
import type { L0AppendResult, L0LogCapabilities, L0LogV1 } from '../spec/l0-log.js';

function readsStayRemote(what: string): never {
  throw new StrataError({
    code: 'UNSUPPORTED',
    message: `${what} reads the service's conversation log: run it on the service (or query it through the API).`,
  });
}

export class RemoteL0Log implements L0LogV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'remote';
  readonly capabilities: L0LogCapabilities = { concurrentAppends: true, indexedSessionReads: false, shared: true, tornTails: false };
  private readonly ops: OperationsRunner;

  constructor(options: { ops: OperationsRunner }) {
    this.ops = options.ops;
  }

  async append(options: { records: L0Record[]; dryRun?: boolean; abortSignal?: AbortSignal }): Promise<L0AppendResult> {
    if (options.dryRun) return { written: options.records.length, duplicates: 0, entries: [], records: options.records };
    let written = 0;
    let duplicates = 0;
    for (let i = 0; i < options.records.length; i += CAPTURE_BATCH_MAX) {
      const batch = options.records.slice(i, i + CAPTURE_BATCH_MAX).map(({ recordedAt: _at, ...r }) => r);
      const out = await this.ops.run('capture', { records: batch }, { abortSignal: options.abortSignal });
      written += out.written;
      duplicates += out.duplicates;
    }
    // The service does not say which records were new; callers only count them.
    return { written, duplicates, entries: [], records: options.records };
  }

  read(): never {
    return readsStayRemote('Reading the log');
  }
  readSession(): never {
    return readsStayRemote('Reading a session');
  }
  sessions(): never {
    return readsStayRemote('Listing sessions');
  }
  async has(): Promise<boolean> {
    // Unknown here; the service drops duplicates on append.
    return false;
  }
  repair(): never {
    return readsStayRemote('Repair');
  }
  async close(): Promise<void> {}
}
