// Words for people instead of field names: every label the inspector shows for a stored field.
export const FIELD_LABELS = {
  id: 'ID',
  text: 'Text',
  category: 'Category',
  scope: 'Scope',
  importance: 'Importance',
  confidence: 'Confidence',
  tags: 'Tags',
  createdAt: 'Created',
  updatedAt: 'Last changed',
  validFrom: 'True since',
  validTo: 'No longer true since',
  supersedes: 'Replaces',
  supersededBy: 'Replaced by',
  accessCount: 'Times recalled',
  lastAccessedAt: 'Last recalled',
  contentHash: 'Content hash',
  embeddingModel: 'Embedding model',
};

export const CATEGORY_LABELS = {
  preference: 'Preference',
  fact: 'Fact',
  decision: 'Decision',
  entity: 'Person or thing',
  event: 'Event',
  rule: 'Rule',
  lesson: 'Lesson learned',
  other: 'Other',
};

export const SOURCE_LABELS = {
  manual: 'Stored by hand or by a tool call',
  distill: 'Learned from a conversation',
  import: 'Imported',
  capture: 'Captured from a conversation',
};

export const ACTION_LABELS = {
  create: 'Created',
  update: 'Edited',
  forget: 'Forgotten',
  supersede: 'Replaced',
  merge: 'Merged',
  revert: 'Reverted',
  'keep-both': 'Kept beside a similar one',
};

export const ROLE_LABELS = { user: 'User', assistant: 'Assistant', tool: 'Tool', system: 'System', summary: 'Summary' };

export const label = (table, key) => table[key] ?? key;

/** `agent:coder` -> `Agent coder`; other scopes as they are, with a word for the kind. */
export function scopeLabel(scope) {
  if (scope === 'global') return 'Global (every agent)';
  const m = /^(agent|user|project|session|custom):(.+)$/.exec(scope ?? '');
  if (!m) return scope;
  const kind = { agent: 'Agent', user: 'User', project: 'Project', session: 'Session', custom: 'Custom' }[m[1]];
  return `${kind} ${m[2]}`;
}
