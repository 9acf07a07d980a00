import { describe, expect, it } from 'vitest';
import { runCli, tempHome } from '../support/run-cli.js';

/** `strata add` text that starts with '-' (a pasted key, a list item) is text, never an unknown option. */
describe('strata add: text starting with a dash', () => {
  it('stores "-----BEGIN ..." and "- item" as text (redacted where secret), with or without --, and still names a mistyped option', async () => {
    const home = await tempHome();
    const key =
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----';
    const stored = async (args: string[]): Promise<string> => {
      const result = await runCli(['--home', home, '--json', 'add', ...args]);
      expect(result.code, result.stderr).toBe(0);
      return (JSON.parse(result.stdout) as { action: string; record: { text: string } }).record.text;
    };
    const pasted = await stored([key, '--tag', 'keys']);
    expect(pasted).toContain('[REDACTED:');
    expect(pasted).not.toContain('b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ');
    expect(await stored(['--', '- deploys need two approvals from the infra team'])).toBe(
      '- deploys need two approvals from the infra team',
    );
    expect(await stored(['-- staging runs on port 6543, not 5432'])).toBe('-- staging runs on port 6543, not 5432');

    const typo = await runCli(['--home', home, 'add', '--tagz']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("unknown option '--tagz'");
    expect(typo.stderr).toContain('strata add --');
  }, 240_000); // four CLI processes: slow on a loaded machine
});
