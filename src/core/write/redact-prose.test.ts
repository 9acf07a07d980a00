import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact.js';

// Shapes an extractor wrote in the admission set (bench/data, tune rows) and their spoken forms.
const TOLD: Array<[string, string]> = [
  ['The passphrase for GPG key 8E1F899571345D06 is `Slate!Legion-2026#gpg`.', 'Slate!Legion-2026#gpg'],
  ['The dev login for the app is jdoe with password `Pa55w0rd-dev!42`.', 'Pa55w0rd-dev!42'],
  ['log in as jdoe with password Pa55w0rd-dev!42 and check the queue', 'Pa55w0rd-dev!42'],
  ['The password for the staging database is Harbor!2026x, ask Ana for prod.', 'Harbor!2026x'],
  ['The password for staging is Harbor2026.', 'Harbor2026'],
  ['the passphrase for `~/.ssh/id_ed25519` is `Maple#77xyz`', 'Maple#77xyz'],
  ["I changed the password to 'Ember^55Kq' this morning", 'Ember^55Kq'],
  ['Password for `admin@corp1.com` is "Quartz?812abc"', 'Quartz?812abc'],
  ['the deploy token: `tk9-prod-77x`', 'tk9-prod-77x'],
  ["User's EXPO_TOKEN is eas_7Hq2mWx9LrT4kP9.", 'eas_7Hq2mWx9LrT4kP9'],
  ['B2_ACCOUNT_KEY is K004qz8VbN2mLx7TfR', 'K004qz8VbN2mLx7TfR'],
  ['La contraseña del usuario de lectura del Postgres origen es Mon3dita#2024', 'Mon3dita#2024'],
];

// What such sentences hold where a value could stand: names, paths, versions, words.
const NAMED: string[] = [
  'pin numpy to `numpy==1.26.4`',
  'set max tokens to `max_tokens=4096`',
  'count tokens to `cl100k_base` encoding',
  'the token is `GITHUB_TOKEN_2`',
  'the API key is in `config/keys2.json`',
  'the secret is read from `token2.json`',
  'The password is stored in AWS Secrets Manager.',
  'the token count is `12345`',
  'the API key goes in the `x-api-key` header',
  'the token was `v1.2.3`',
  'the password for staging is rotated weekly by ops2',
  'the api key is `process.env.OPENAI_KEY`',
  'the token expiry is 3600seconds',
  'The GITHUB_TOKEN is set in CI secrets.',
  'OPENAI_API_KEY is required for the LLM path.',
  'The STRIPE_KEY is stored in 1Password.',
];

describe('credentials told in a sentence', () => {
  it.each(TOLD)('removes the value of %j', (text, secret) => {
    const result = redactSecrets(text);
    expect(result.text).not.toContain(secret);
    expect(result.redactions.map((r) => r.kind)).toContain('password');
    // Only the value goes: the sentence still says what the credential was for.
    expect(result.text.length).toBeGreaterThan(text.length - secret.length);
    expect(redactSecrets(result.text).count).toBe(0);
  });

  it.each(NAMED)('keeps %j', (text) => {
    expect(redactSecrets(text)).toMatchObject({ text, count: 0 });
  });
});

// A number that opens something, said with its label, in English or Spanish (extractors write in the conversation's language).
const NUMBERS: Array<[string, string]> = [
  ['The PIN of their debit card is 7390.', '7390'],
  ['Their door code: 2580', '2580'],
  ['The verification code they got is 118 204.', '118 204'],
  ['El código de verificación que le mandaron es 604217.', '604217'],
  ['El número de su tarjeta es 4000 1234 5678 9011.', '4000 1234 5678 9011'],
];
const NOT_NUMBERS = [
  'The HTTP status code is 404 when the token expired.',
  'Pin the runner to version 3.2.1.',
  'El puerto de staging es 5433.',
];

describe('numeric credentials told with their label', () => {
  it.each(NUMBERS)('removes the number of %j', (text, secret) => {
    const result = redactSecrets(text);
    expect(result.text).not.toContain(secret);
    expect(result.count).toBeGreaterThan(0);
  });

  it.each(NOT_NUMBERS)('keeps %j', (text) => {
    expect(redactSecrets(text)).toMatchObject({ text, count: 0 });
  });

  it('removes a Spanish password told in a sentence', () => {
    const result = redactSecrets('La contraseña del router de casa es Lince#2031.');
    expect(result.text).not.toContain('Lince#2031');
  });
});

describe('a password quoted in brackets after its name', () => {
  it('removes the value a summary quotes ("the app password she sent (\\"v\\")")', () => {
    // A written compaction summary carried this through redaction and the gate.
    const text = 'The kita app password she sent by mistake on Monday ("Lia2019!sonne") — I told her to change it.';
    expect(redactSecrets(text).text).not.toContain('Lia2019!sonne');
    expect(redactSecrets('la contraseña que mandó (“Girasol_77x”)').text).not.toContain('Girasol_77x');
  });

  it('keeps names: a product, a code identifier', () => {
    for (const text of ['the password manager ("1password") is used', 'password reset flow (`resetPassword2`)'])
      expect(redactSecrets(text)).toMatchObject({ text, count: 0 });
  });
});

describe('numbers that open something, told with their label', () => {
  it.each([
    ['the PIN of their card is 4821', '4821'],
    ['the verification code is 559013', '559013'],
    ['Her passport number is 533201987.', '533201987'],
    ['El número de pasaporte de Daniela es 135792468', '135792468'],
    ['su número de cédula es 1020304050', '1020304050'],
  ])('removes the number of %j', (text, secret) => {
    const result = redactSecrets(text);
    expect(result.text).not.toContain(secret);
    expect(result.redactions.map((r) => r.kind)).toContain('numeric-credential');
  });
  it.each(['the passport office opens at 9', 'Her passport expires in 2031.', 'the PIN pad is on the left'])('keeps %j', (text) => {
    expect(redactSecrets(text).text).toBe(text);
  });
});
