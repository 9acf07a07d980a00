/**
 * An L0 log whose every append is redacted and checked: each record's content, session and
 * message ids pass `redactL0Record`, and an agent id that cannot form a scope is refused. Wrapping
 * the log once (in `Strata.open`'s wiring) covers every path that appends — transcript ingest,
 * `watch`, live capture, `appendConversation` — whichever L0 backend is configured or injected.
 * Lookups by record or session id are redacted the same way, so they find what was stored.
 */
import type { L0Record } from '../../spec/conversation.js';
import type { L0LogV1, L0SessionFilter } from '../../spec/l0-log.js';
import { assertAgentId } from '../scope.js';
import { redactId, redactL0Record } from './redact-record.js';

const WRAPPED = Symbol.for('strata.redactingL0Log');

function checked(record: L0Record): L0Record {
  assertAgentId(record.agentId); // the store boundary: no record of an agent that cannot form a scope
  return redactL0Record(record);
}

const redactFilter = <T extends L0SessionFilter>(f: T): T => ({
  ...f,
  ...(f.sessionId !== undefined ? { sessionId: redactId(f.sessionId) } : {}),
  ...(f.sessionKey !== undefined ? { sessionKey: redactId(f.sessionKey) } : {}),
});

export function redactingL0Log(log: L0LogV1): L0LogV1 {
  if ((log as unknown as Record<symbol, unknown>)[WRAPPED]) return log;
  return new Proxy(log, {
    get(target, prop) {
      if (prop === WRAPPED) return true;
      if (prop === 'append') {
        // async: a refused record rejects the returned promise like any other append failure.
        return async (options: Parameters<L0LogV1['append']>[0]) => target.append({ ...options, records: options.records.map(checked) });
      }
      if (prop === 'has') return (options: { record: L0Record }) => target.has({ record: redactL0Record(options.record) });
      if (prop === 'readSession') return (options: Parameters<L0LogV1['readSession']>[0]) => target.readSession(redactFilter(options));
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
