/**
 * `capture`: cleaned conversation messages from a machine that reads its own transcripts (remote
 * mode) into this engine's L0 log and conversation index. The caller's agent owns them: a record
 * naming another agent is refused unless the caller holds that agent's scope. Resending a batch
 * adds nothing (the log drops records it already holds), so a client may retry it safely.
 */
import { z } from 'zod';
import { CONVERSATION_HOSTS, CONVERSATION_ROLES, type L0Record } from '../../spec/conversation.js';
import { InvalidArgumentError } from '../../errors/index.js';
import { canReadAgent } from '../caller.js';
import { defineOperation } from './operation.js';

/** Records per call: a client sends larger captures in batches of this size. */
export const CAPTURE_BATCH_MAX = 500;
const id = z.string().min(1).max(512);

export interface CaptureOpResult {
  written: number;
  duplicates: number;
}

export const capture = defineOperation({
  name: 'capture',
  access: 'write',
  description: 'Append cleaned conversation messages (read from transcripts on the calling machine) to the L0 log and conversation index.',
  input: () =>
    z.strictObject({
      records: z
        .array(
          z.strictObject({
            sessionKey: id,
            sessionId: id,
            agentId: z.string().min(1).max(128).optional().describe("Default: the caller's agent"),
            host: z.enum(CONVERSATION_HOSTS),
            id,
            role: z.enum(CONVERSATION_ROLES),
            content: z.string().max(1_000_000),
            timestamp: z.number().int().nonnegative(),
          }),
        )
        .max(CAPTURE_BATCH_MAX),
    }),
  async run(ctx, a): Promise<CaptureOpResult> {
    const recordedAt = new Date().toISOString();
    const records: L0Record[] = a.records.map((r) => {
      const agentId = r.agentId ?? ctx.caller.agentId;
      if (!agentId)
        throw new InvalidArgumentError({
          argument: 'records.agentId',
          message: 'This caller has no agent: name the agent of each record, or use an agent token.',
        });
      if (!canReadAgent(ctx.caller, agentId))
        throw new InvalidArgumentError({
          argument: 'records.agentId',
          code: 'FORBIDDEN_SCOPE',
          message: `A caller acting as ${ctx.caller.agentId ?? '(no agent)'} cannot capture conversations of agent ${agentId}.`,
        });
      return { ...r, agentId, recordedAt };
    });
    if (records.length === 0) return { written: 0, duplicates: 0 };
    const out = await ctx.engine.appendConversation({ records, abortSignal: ctx.abortSignal });
    return { written: out.written, duplicates: out.duplicates };
  },
});
