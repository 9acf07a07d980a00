import { describe, expect, it } from 'vitest';
import { runCli, tempHome } from '../support/run-cli.js';

/** `strata add` text that starts with '-' (a pasted key, a list item) is text, never an unknown option. */
describe('strata add: text starting with a dash', () => {
  it('stores "-----BEGIN ..." and "- item" as text (redacted where secret), with or without --, and still names a mistyped option', async () => {
    const home = await tempHome();
    const key = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----';
    const pasted = await runCli(['--home', home, 'add', key, '--tag', 'keys', '--json']);
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(JSON.parse(pasted.stdout)).toMatchObject({ action: 'created', redactions: 1 });

    const item = await runCli(['--home', home, 'add', '--json', '--', '- deploys need two approvals from the infra team']);
    expect(item.code, item.stderr).toBe(0);
    const bare = await runCli(['--home', home, 'add', '-- staging runs on port 6543, not 5432', '--json']);
    expect(bare.code, bare.stderr).toBe(0);

    const typo = await runCli(['--home', home, 'add', '--tagz']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("unknown option '--tagz'");
    expect(typo.stderr).toContain('strata add --');

    const list = await runCli(['--home', home, 'list', '--json']);
    const texts = (JSON.parse(list.stdout) as { memories: Array<{ text: string; tags: string[] }> }).memories.map((m) => m.text).sort();
    expect(texts).toHaveLength(3);
    expect(texts[0]).toBe('- deploys need two approvals from the infra team');
    expect(texts[1]).toBe('-- staging runs on port 6543, not 5432');
    expect(texts[2]).not.toContain('b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ');
  });
});
