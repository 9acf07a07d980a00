import { describe, expect, it } from 'vitest';
import { captureByRules } from './rules.js';
import { restates } from './restated.js';

describe('a summary telling the same thing twice', () => {
  it('is recognised across wordings (real pairs, cc-mac compaction summary L483)', () => {
    expect(
      restates('BFG installation failed due to OpenJDK download lock.', 'BFG installation was blocked by concurrent OpenJDK download.'),
    ).toBe(true);
    expect(
      restates(
        ".gitleaksignore had invalid entry format warnings (doesn't support wildcards like .gitignore)",
        ".gitleaksignore doesn't support wildcards like .gitignore does.",
      ),
    ).toBe(true);
  });

  it('is not a changed value or a different fact about the same things', () => {
    expect(restates('The staging database listens on port 5433.', 'The staging database listens on port 5434.')).toBe(false);
    expect(restates('Gitleaks runs in max strict mode on staged files.', 'Gitleaks does not run in max strict mode on staged files.')).toBe(
      false,
    );
    expect(restates('Use rgb values in the themes.', 'Link text should be same as accent.')).toBe(false);
  });

  it('yields one memory from a summary that states a lesson in its narrative and again under errors and fixes', () => {
    const summary = [
      '## 1. Primary Request and Intent',
      'The user wanted secrets purged. BFG installation failed due to OpenJDK download lock.',
      '## 4. Errors and Fixes',
      '- BFG installation was blocked by concurrent OpenJDK download.',
    ].join('\n');
    expect(captureByRules({ text: summary, role: 'summary' }).map((c) => c.text)).toEqual([
      'BFG installation failed due to OpenJDK download lock.',
    ]);
  });
});
