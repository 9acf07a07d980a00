import type { ConversationMessage, L0Record } from '../spec/conversation.js';

/** The L0 record of a cleaned message; a message without a time of its own takes the time it was recorded. */
export function l0RecordOf(m: ConversationMessage, content: string, recordedAt: Date): L0Record {
  return {
    sessionKey: m.sessionKey,
    sessionId: m.sessionId,
    agentId: m.agentId,
    host: m.host,
    id: m.entryId,
    role: m.role,
    content,
    timestamp: m.timestamp > 0 ? m.timestamp : recordedAt.getTime(),
    recordedAt: recordedAt.toISOString(),
  };
}
