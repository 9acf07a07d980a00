import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/core/write/redact.js';
import { luhnValid } from '../../src/core/write/redact-detectors.js';
import { secretlintRuleNames } from '../../src/core/write/secretlint-rules.js';
import { GENERATORS, SECRET_KINDS } from './secret-corpus.js';

describe('redaction rule set', () => {
  it('covers at least 64 secret kinds in the planted corpus', () => {
    expect(new Set(SECRET_KINDS).size).toBeGreaterThanOrEqual(64);
  });

  it('uses the maintained secretlint preset (scanner rules only, no disable comments)', () => {
    const names = secretlintRuleNames();
    expect(names).toEqual(expect.arrayContaining(['aws', 'github', 'slack', 'privatekey', 'database-connection-string']));
    expect(names).not.toContain('filter-comments');
  });

  // Fresh values every run: 5 rounds of every kind.
  it.each(GENERATORS.map(([kind, make]) => ({ kind, make })))('removes every fresh $kind', ({ make }) => {
    for (let i = 0; i < 5; i++) {
      const planted = make();
      const result = redactSecrets(planted.text);
      expect(result.text, planted.text).not.toContain(planted.secret);
      expect(result.count).toBeGreaterThan(0);
      expect(redactSecrets(result.text).text).toBe(result.text); // idempotent
    }
  });

  it('still finds a key glued to a UUID', () => {
    const key = 'xK9fQ2mZ7vLp3RtW8nB4cY6hJ1sD5gA0';
    expect(redactSecrets(`3fd20435-b8e4-4665-8552-62463e9032b5/${key}`).text).not.toContain(key);
  });

  it('keeps the command around a password', () => {
    expect(redactSecrets('curl -u admin:hunter2! https://ci').text).toBe('curl -u admin:[REDACTED:password] https://ci');
    expect(redactSecrets("sshpass -p 'pw 1' ssh host").text).toBe('sshpass -p [REDACTED:password] ssh host');
    expect(redactSecrets('PGPASSWORD=s3cret psql').text).toBe('PGPASSWORD=[REDACTED:password] psql');
    expect(redactSecrets('mysql -uroot -ps3cret db').text).toBe('mysql -uroot -p[REDACTED:password] db');
    expect(redactSecrets('openssl rsa -passin pass:s3cret').text).toBe('openssl rsa -passin pass:[REDACTED:password]');
    expect(redactSecrets('The wifi password is sunshine.').text).toBe('The wifi password is [REDACTED:password].');
  });

  it('finds cards by Luhn with spaces or dashes, not other numbers', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(redactSecrets('card 4111 1111 1111 1111 ok').text).toBe('card [REDACTED:card-number] ok');
    expect(redactSecrets('card 5500-0000-0000-0004 ok').text).toBe('card [REDACTED:card-number] ok');
    for (const text of [
      'order 4111 1111 1111 1112 (bad checksum)',
      'timestamp 1768407059733 and 1700000000000000',
      'call +49 30 1234 5678 or 555-123-4567',
      'uuid 3fd20435-b8e4-4665-8552-62463e9032b5',
      'ISBN 978-3-16-148410-0, version 4.11.1111.1111',
    ]) {
      expect(redactSecrets(text).text, text).toBe(text);
    }
  });

  // Things agents talk about all day that must never be taken for keys.
  it.each([
    'commit 4b825dc642cb6eb9a060e54bf8d69288fbee4904 on main (short 4b825dc)',
    'sha512-Dm6L5wUVLDGbwMv3Kh4BOTq1pYbUJYWvLnpPyiJ8mbqNBNfcP6g1a7f3r5Qpe9aP2k8kMFBNcSzg4C4zBtV4Kg==',
    'ULID 01HZX3K4Q7D9V2M8N6B5C1A0TR and UUID 0f8fad5b-d9cb-469f-a165-70867728950e',
    'the tool call toolu_01EoxGmKUxizPsUifXhSP9K2 returned; msg_01LkKqpUD829m724o5oSeN7M too',
    'NonpagedSystemMemorySize64 and AppleHIDKeyboardEventDriverV2 and getUserAccountSettingsV2ForTenant',
    '/Users/me/Library/Caches/Homebrew/downloads/2ce3072238988cb4b13479a12dbce067b1298122--node-22.tar.gz',
    'The password is required. The key is consistency. Your password is too short.',
    'token: data.token, password: null, secret: "**"',
    'grep -n found lib/subagent_live.ex:25:guard_fail',
    // Claude Code session keys: a project slug (mixed-case names with digits) and the session UUID.
    'claude-code:-home-alice-Projects-MyApp2/ad22c0e2-83e8-48b9-bd91-e8a23ab17937',
    'claude-code:-tmp-strata-cc-AbC12x-project/3fd20435-b8e4-4665-8552-62463e9032b5',
  ])('leaves alone: %s', (text) => {
    expect(redactSecrets(text).text).toBe(text);
  });
});
