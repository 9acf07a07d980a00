import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containsSecrets, redactSecrets } from './redact.js';

const alnum = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const hex = '0123456789abcdef';
const rand = (chars: string, n: number, seed: number): string => {
  let out = '';
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += chars[x % chars.length];
  }
  return out;
};

// One realistic (fake) credential per kind; the secret part is what must disappear.
const SAMPLES: Array<{ kind: string; text: string; secret: string }> = [
  { kind: 'openai-key', text: `key sk-${rand(alnum, 48, 1)}1a`, secret: rand(alnum, 48, 1) },
  { kind: 'openai-key', text: `OPENAI_API_KEY=sk-proj-${rand(alnum, 64, 2)}`, secret: rand(alnum, 64, 2) },
  { kind: 'anthropic-key', text: `use sk-ant-api03-${rand(alnum, 80, 3)} here`, secret: rand(alnum, 80, 3) },
  { kind: 'openrouter-key', text: `sk-or-v1-${rand(hex, 64, 4)}`, secret: rand(hex, 64, 4) },
  { kind: 'github-token', text: `token ghp_${rand(alnum, 36, 5)}.`, secret: rand(alnum, 36, 5) },
  { kind: 'github-token', text: `gho_${rand(alnum, 36, 6)}`, secret: rand(alnum, 36, 6) },
  { kind: 'github-token', text: `github_pat_11A${rand(alnum, 20, 7)}_${rand(alnum, 59, 8)}`, secret: rand(alnum, 59, 8) },
  { kind: 'aws-access-key', text: 'id AKIAIOSFODNN7EXAMPLE ok', secret: 'AKIAIOSFODNN7EXAMPLE' },
  {
    kind: 'aws-secret-key',
    text: 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  },
  { kind: 'google-api-key', text: `AIza${rand(alnum, 35, 9)}`, secret: rand(alnum, 35, 9) },
  { kind: 'slack-token', text: `xoxb-123456789012-${rand(alnum, 24, 10)}`, secret: rand(alnum, 24, 10) },
  { kind: 'stripe-key', text: `sk_live_${rand(alnum, 24, 11)} and`, secret: rand(alnum, 24, 11) },
  { kind: 'stripe-key', text: `rk_live_${rand(alnum, 24, 12)}`, secret: rand(alnum, 24, 12) },
  { kind: 'bearer-token', text: `Authorization: Bearer ${rand(alnum, 32, 13)}`, secret: rand(alnum, 32, 13) },
  { kind: 'bearer-token', text: `curl -H "Bearer ${rand(alnum, 20, 14)}x9"`, secret: rand(alnum, 20, 14) },
  {
    kind: 'jwt',
    text: 'jwt eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U end',
    secret: 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  },
  {
    kind: 'private-key',
    text: `before\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA${rand(alnum, 40, 15)}\n${rand(alnum, 64, 16)}\n-----END OPENSSH PRIVATE KEY-----\nafter`,
    secret: rand(alnum, 64, 16),
  },
  { kind: 'url-password', text: 'db postgres://admin:S3cr3t-Pa55@db.internal:5432/app', secret: 'S3cr3t-Pa55' },
  { kind: 'password', text: 'password=hunter2 and more', secret: 'hunter2' },
  { kind: 'password', text: 'DB_PASSWD: "correct horse battery"', secret: 'correct horse battery' },
  { kind: 'api-key', text: 'api_key=abc123xyz', secret: 'abc123xyz' },
  { kind: 'secret', text: "client_secret='zz-top-9'", secret: 'zz-top-9' },
  { kind: 'token', text: 'https://x.io/cb?access_token=q1w2e3r4&state=ok', secret: 'q1w2e3r4' },
  { kind: 'password', text: 'mysql --password s3cr3t! --user bob', secret: 's3cr3t!' },
  { kind: 'api-key', text: 'cli --api-key "abc 123" run', secret: 'abc 123' },
  { kind: 'labelled-secret', text: `my signing key is ${rand(alnum, 32, 17)}9 ok`, secret: rand(alnum, 32, 17) },
];

describe('redactSecrets', () => {
  it.each(SAMPLES)('redacts $kind', ({ kind, text, secret }) => {
    const result = redactSecrets(text);
    expect(result.text).not.toContain(secret);
    expect(result.text).toContain(`[REDACTED:${kind}]`);
    expect(result.redactions).toContainEqual({ kind, count: 1 });
    expect(result.count).toBe(1);
  });

  it('keeps the surrounding text, the label, the user name and the host', () => {
    expect(redactSecrets('postgres://admin:pw1234@db.internal:5432/app').text).toBe(
      'postgres://admin:[REDACTED:url-password]@db.internal:5432/app',
    );
    expect(redactSecrets('Authorization: Bearer abcdef0123456789xyz').text).toBe('Authorization: Bearer [REDACTED:bearer-token]');
    expect(redactSecrets('{"password": "hunter2", "user": "bob"}').text).toBe('{"password": "[REDACTED:password]", "user": "bob"}');
    expect(redactSecrets('Set token=abc123; then go.').text).toBe('Set token=[REDACTED:token]; then go.');
  });

  it('keeps `&` inside a bare value unless a URL query parameter follows it', () => {
    // A record id or session key carries the sentence after a prefix, so the YAML rule's line anchor does not apply.
    expect(redactSecrets('agent:main:  password: Harbor&8811IJb').text).toBe('agent:main:  password: [REDACTED:password]');
    expect(redactSecrets('GET /api?token=abc123&page=2').text).toBe('GET /api?token=[REDACTED:token]&page=2');
  });

  it('keeps an OpenPGP key ID or fingerprint named as a signing key, and a signing key without GPG context goes', () => {
    for (const text of [
      "The user's GPG signing key 8E1F899571345D06 is stored in 1Password.",
      'A signing key is configured (user.signingkey=8E1F899571345D06)',
      'gpg: signing key 0123456789ABCDEF0123456789ABCDEF01234567 expires in May',
    ])
      expect(redactSecrets(text)).toMatchObject({ text, count: 0 });
    expect(redactSecrets('the webhook signing key is 8f3a9c2e7b1d4f6a8c0e2b4d6f8a0c2e4b6d8f0a').count).toBe(1);
  });

  it('keeps a file reference after a credential-like label (a code location, a scanner report line)', () => {
    for (const text of [
      'The only one from our code is `subagent_live.ex:25:guard_fail`.',
      ' 398 twilio-api-key: CHAT_LOGS/c7d2069e-c561-4759-8adf-b0745be78c29.jsonl',
    ])
      expect(redactSecrets(text)).toMatchObject({ text, count: 0 });
    expect(redactSecrets('our door code is `4711-2231`').count).toBe(1);
  });

  it('tells a placeholder key from a random key that spells a placeholder word by chance', () => {
    for (const key of ['Zs0edx4oJap0FHzeVYAe8ZyEMkIOsXHioDteST1B', '761KNTVfOgsEIfAkE2wYTXmyzPiGiEwbBvBJAOa0'])
      expect(redactSecrets(`paste this into the config: ${key}`).text).toBe('paste this into the config: [REDACTED:high-entropy]');
    for (const key of ['xK9fQ2mZ7vLpEXAMPLEhJ1sD5gA0', 'xK9fQ2mZ7vLp_test_hJ1sD5gA0Rt', 'xK9fQ2mZ7vLpFakehJ1sD5gA0RtW'])
      expect(redactSecrets(`paste this into the config: ${key}`).count).toBe(0);
  });

  it('removes a URL password that itself contains @', () => {
    expect(redactSecrets('https://me:p@ss@host.io/x').text).toBe('https://me:[REDACTED:url-password]@host.io/x');
  });

  it('removes an unterminated PEM block', () => {
    const text = `-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA${rand(alnum, 40, 20)}\n${rand(alnum, 64, 21)}`;
    expect(redactSecrets(text).text).toBe('[REDACTED:private-key]');
  });

  it('counts several secrets of several kinds', () => {
    const result = redactSecrets(`a ghp_${rand(alnum, 36, 1)} b ghp_${rand(alnum, 36, 2)} c password=x1`);
    expect(result.redactions).toEqual([
      { kind: 'github-token', count: 2 },
      { kind: 'password', count: 1 },
    ]);
    expect(result.count).toBe(3);
  });

  // False positives: each of these must come back unchanged.
  it.each([
    'Fixed in commit 3f2a9c1b8e7d6f5a4b3c2d1e0f9a8b7c6d5e4f3a (see a1b2c3d).',
    'sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'Request id 123e4567-e89b-12d3-a456-426614174000 failed; token refresh works now.',
    'Docs at https://example.com:8080/path?q=1&page=2#top and ssh://git@github.com:22/org/repo.git',
    'The bearer of bad news said Bearer tokens expire hourly.',
    'Use max_tokens=100, the tokenizer: bpe, and num_tokens = 5.',
    'Remember the password: it is on the sticky note. The token: the user picks one.',
    'Which token: access. Which password: hers!',
    'scikit-learn exposes sk-learn-compatible-estimators; see task-1234567890abcdefghij.',
    'if password == other: return early',
    'pwd=/home/user/projects',
    'Keys go in $OPENAI_API_KEY; set api_key=${OPENAI_API_KEY} or api_key=process.env.KEY',
    'The primary key is user_id; the cache key: 3f2a9c1b8e7d6f5a4b3c2d1e.',
    'Secrets are stored in Vault and the API key rotation runs monthly.',
    'The user prefers dark mode. They live in Berlin and use AKIA as a nickname.',
    'My email is bob@example.com and the server is mail.example.com:587.',
    'eyJ is how base64 JSON starts.',
    'Pass it with the --token flag, or --password-file; gh --token $GH_TOKEN; tool --token --verbose.',
  ])('leaves alone: %s', (text) => {
    const result = redactSecrets(text);
    expect(result.text).toBe(text);
    expect(result.count).toBe(0);
    expect(result.redactions).toEqual([]);
    expect(containsSecrets(text)).toBe(false);
  });

  const prose = fc
    .array(
      fc.constantFrom(
        'the',
        'user',
        'likes',
        'tea',
        'key',
        'token:',
        'password',
        'is',
        'on',
        'a',
        'commit',
        '3f2a9c1b',
        'https://example.com/x',
        '\n',
        'Bearer',
        'secret',
        '=',
        '42',
      ),
      { maxLength: 20 },
    )
    .map((w) => w.join(' '));
  const secretText = fc.constantFrom(...SAMPLES);
  const mixed = fc.tuple(prose, secretText, prose).map(([a, s, b]) => ({ text: `${a} ${s.text} ${b}`, secret: s.secret }));

  it('is idempotent on arbitrary text and on text with secrets (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          prose,
          mixed.map((m) => m.text),
        ),
        (text) => {
          const once = redactSecrets(text);
          const twice = redactSecrets(once.text);
          return twice.text === once.text && twice.count === 0;
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 400) },
    );
  });

  it('redacts the inner assignment when a password key is assigned another key (property counterexample)', () => {
    const result = redactSecrets('password = DB_PASSWD: "correct horse battery" ');
    expect(result.text).not.toContain('correct horse battery');
    expect(result.text).toContain('DB_PASSWD');
  });

  it('never lets an embedded secret through (property)', () => {
    fc.assert(
      fc.property(mixed, ({ text, secret }) => {
        const result = redactSecrets(text);
        return !result.text.includes(secret) && result.count >= 1 && redactSecrets(result.text).text.includes(secret) === false;
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 400) },
    );
  });

  it('changes nothing when it reports no redaction (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), prose), (text) => {
        const result = redactSecrets(text);
        return result.count > 0 || result.text === text;
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 400) },
    );
  });
});
