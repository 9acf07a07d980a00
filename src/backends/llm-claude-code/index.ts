export { createClaudeCodeLlm, CLAUDE_CODE_GUARD_ENV, DEFAULT_CLAUDE_CODE_MODEL, type ClaudeCodeSettings } from './claude-code-cli.js';
