/**
 * Which host wrote the transcripts under a folder, for `--path` without `--source`. The layouts are
 * tried from the most specific (OpenClaw's agents/<id>/sessions, Codex's rollout-*.jsonl names) to
 * the least (Claude Code: any .jsonl in a project folder), and the first that finds files wins, so
 * a folder of Codex rollouts is never also read as Claude Code sessions.
 */
import { InvalidArgumentError } from '../errors/index.js';
import { READERS, type SourceKind } from './readers/index.js';

const ORDER: SourceKind[] = ['openclaw', 'codex', 'claude-code'];

export const EXPECTED_LAYOUTS =
  'Claude Code: ~/.claude, ~/.claude/projects or one project folder; Codex: ~/.codex or ~/.codex/sessions (rollout-*.jsonl); ' +
  'OpenClaw: the state dir (~/.openclaw), its agents folder or agents/<id>/sessions; anything else: --source jsonl';

export async function detectSource(options: { root: string; includeSubagents?: boolean }): Promise<SourceKind> {
  for (const kind of ORDER) {
    const files = await READERS[kind].discover({ root: options.root, includeArchives: true, includeSubagents: options.includeSubagents });
    if (files.length > 0) return kind;
  }
  throw new InvalidArgumentError({
    argument: 'path',
    message: `No Claude Code, Codex or OpenClaw transcripts under ${options.root}. Expected one of: ${EXPECTED_LAYOUTS}. To watch a folder that has none yet, name its host with --source.`,
  });
}
