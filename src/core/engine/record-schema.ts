import { z } from 'zod';
import { MEMORY_CATEGORIES, SOURCE_KINDS } from '../../spec/memory-record.js';
import { isValidScope } from '../scope.js';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/i;
const ulid = z.string().regex(ULID, 'must be a ULID (a memory id)');
const iso = z.string().refine((s) => Number.isFinite(Date.parse(s)), 'must be an ISO-8601 date');
const unit = z.number().min(0).max(1);

/**
 * One line of a Strata JSONL export. Import accepts full records (idempotent by id) and also
 * minimal `{text, scope?}` lines from other tools, which get fresh ids and defaults.
 */
export const importLineSchema = z
  .object({
    id: ulid.optional(),
    text: z.string().min(1),
    category: z.enum(MEMORY_CATEGORIES).optional(),
    scope: z
      .string()
      .refine(isValidScope, 'must be global, agent:<id>, user:<id>, project:<id>, session:<key> or custom:<name>')
      .optional(),
    importance: unit.optional(),
    confidence: unit.optional(),
    // Same limits as the hosts: a tag is a short label, not a document.
    tags: z.array(z.string().min(1).max(64)).max(32).optional(),
    source: z
      .object({
        kind: z.enum(SOURCE_KINDS),
        agentId: z.string().max(128).optional(),
        sessionKey: z.string().max(512).optional(),
        messageIds: z.array(z.string().max(512)).max(1000).optional(),
      })
      .optional(),
    createdAt: iso.optional(),
    updatedAt: iso.optional(),
    validFrom: iso.optional(),
    validTo: iso.nullable().optional(),
    supersedes: ulid.nullable().optional(),
    supersededBy: ulid.nullable().optional(),
    accessCount: z.number().int().min(0).optional(),
    lastAccessedAt: iso.nullable().optional(),
    contentHash: z.string().optional(),
    embeddingModel: z.string().optional(),
  })
  .passthrough();

export type ImportLine = z.infer<typeof importLineSchema>;
