/**
 * Credentials told in a sentence rather than assigned: "the passphrase for GPG key 8E1F… is
 * `Slate!Legion-2026#gpg`", "log in as jdoe with password Pa55w0rd-dev!42", "the password for
 * staging is Harbor!2026x". The label and the value are apart, so the assignment and prose rules in
 * `redact-rules.ts` (which want `label: value` or "the wifi password is") miss them. Only the value
 * is replaced, and only when it looks made up: a word, a path, a version, an email or the name of
 * an environment variable is what such sentences usually hold instead, and those are kept.
 */
import type { Rule } from './redact-rules.js';
import { isPlaceholder } from './redact-rules.js';

// Not "pin": pinning a version ("pin numpy to `1.26.4`") is far more common in agent talk than a PIN with letters.
// Spanish too ("la contraseña del wifi es ..."): extractors write memories in the conversation's language.
const CREDENTIAL = '(?:password|passwd|passphrase|passcode|token|api[ _-]?key|secret|credentials?|contrase(?:ñ|n)a|clave(?: de acceso)?)s?';
/**
 * Up to 60 characters of the same clause between the label and the verb ("la contraseña del usuario
 * de lectura del Postgres origen es"); a `quoted` name counts as one.
 */
const CLAUSE = '(?:[^.\\n`"\']|`[^`\\n]{1,60}`){0,60}?';
// Not "to"/"of" alone: "tokens to `cl100k_base`" names an encoding; "set to" / "changed to" do set a value.
const VERB = '(?:is|are|was|were|remains|set to|changed to|with|=|:)';
/** "changed the password to …": "to" sets a value only after a password's own name. */
const PASSWORD_TO = '\\b(?:password|passphrase|passcode)[ \\t]+to[ \\t]+';
const STRONG_SYMBOL = /[!#$%&*+?@^~]/;

/** Names that sentences about credentials hold where a value could stand. */
function namesSomething(value: string): boolean {
  return (
    isPlaceholder(value) ||
    !/[A-Za-z]/.test(value) ||
    /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value) || // an environment variable: GITHUB_TOKEN_2
    /^v?\d+(?:\.\d+)+/.test(value) || // a version
    /^(?:~|\.{0,2}\/|[a-z][a-z0-9+.-]*:\/\/)/i.test(value) || // a path or a URL
    /\/[\w.-]+/.test(value) || // a relative path: config/keys2.json
    /^[\w.-]+\.[a-z]{2,5}$/.test(value) || // a file name: token2.json
    /^[^@\s]+@[\w-]+(?:\.[\w-]+)+$/.test(value) || // an email address
    /^-/.test(value) || // a flag
    /^\w+=/.test(value) // an assignment: max_tokens=4096
  );
}

/** A quoted value: a made-up string holds a digit or a symbol besides its letters. */
const quotedSecret = (value: string): boolean =>
  value.length >= 6 && !namesSomething(value) && /[a-z]/.test(value) && (/\d/.test(value) || STRONG_SYMBOL.test(value));

/** A bare value ends the sentence with it, so it must look made up on its own: digits, letters and case or a symbol. */
const bareSecret = (value: string): boolean =>
  value.length >= 8 &&
  !namesSomething(value) &&
  /\d/.test(value) &&
  /[a-z]/i.test(value) &&
  (/[a-z].*[A-Z]|[A-Z].*[a-z]/.test(value) || STRONG_SYMBOL.test(value));

/** Replaces group 2, a bare value ending the sentence, when it looks made up; trailing punctuation stays. */
function replaceBareValue(m: RegExpExecArray, r: string): string | undefined {
  const raw = m[2] ?? '';
  const value = raw.replace(/[.,)]+$/, '');
  return bareSecret(value) ? `${m[1]}${r}${raw.slice(value.length)}` : undefined;
}

/**
 * A number that opens something, told with its label: "the PIN of their card is 4821", "the
 * verification code is 559013", "el número de su tarjeta es 4532 7781 0093 2210". Digits alone pass
 * every other rule (a card number only when its checksum holds), and never belong in a memory.
 */
const NUMERIC_CREDENTIAL =
  '(?:pin|cvv|cvc|otp|(?:verification|security|one-time|2fa|mfa|sms|login|unlock|door|alarm|gate|safe) (?:code|pin)|card number|account number|iban|passport number|social security number|ssn|c[oó]digo de (?:verificaci[oó]n|seguridad|acceso|desbloqueo|la puerta|la alarma)|n[uú]mero de (?:su |la |mi |tu )?(?:tarjeta|cuenta|pasaporte|c[eé]dula|dni|seguridad social))';

/** An environment variable named for a credential: `EXPO_TOKEN`, `B2_ACCOUNT_KEY`, `STRIPE_WEBHOOK_SECRET`. */
const CREDENTIAL_VARIABLE =
  '\\b[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*(?:TOKEN|KEY|SECRET|PASSWORD|PASSWD|PASS|PWD|PASSPHRASE|CREDENTIALS?|AUTH)\\b';

export const PROSE_CREDENTIAL_RULES: Rule[] = [
  {
    // "User's EXPO_TOKEN is eas_7Hq2mWx9LrT4kP9.": the assignment rules want `=` or `:` after the name.
    kind: 'password',
    pattern: new RegExp(
      `(${CREDENTIAL_VARIABLE}[ \\t]+(?:is|was|are|were|remains|set to|changed to|es|era)[ \\t]+)(?!\\[REDACTED:)([^\\s"'\`,;]{8,128})`,
      'g',
    ),
    replace: replaceBareValue,
  },
  {
    kind: 'numeric-credential',
    pattern: new RegExp(
      `(\\b${NUMERIC_CREDENTIAL}\\b[^.\\n\\d]{0,40}?\\b(?:is|was|are|es|era|son)\\b[ \\t]*:?[ \\t]*|\\b${NUMERIC_CREDENTIAL}[ \\t]*[:=][ \\t]*)(\\d(?:[ -]?\\d){3,33})(?![\\w-]|[.,]\\d)`,
      'giu',
    ),
    replace: (m, r) => `${m[1]}${r}`,
  },
  {
    // "the passphrase for key X is `v`", "password `v`", "token: 'v'": the quotes mark the value's extent.
    kind: 'password',
    pattern: new RegExp(
      `(\\b${CREDENTIAL}\\b(?:${CLAUSE}\\b${VERB}|${CLAUSE}[:=])?[ \\t]*|${PASSWORD_TO})([\`"'])([^\`"'\\s]{6,128})\\2`,
      'gi',
    ),
    replace: (m, r) => (quotedSecret(m[3] ?? '') ? `${m[1]}${m[2]}${r}${m[2]}` : undefined),
  },
  {
    // "the app password she sent by mistake (\"Lia2019!sonne\")": a quoted value in brackets after a
    // password's own name, with no verb between; it must look made up on its own.
    kind: 'password',
    // Backticks quote code (`resetPassword2`), not what someone sent.
    pattern: new RegExp(
      `(\\b(?:password|passphrase|passcode|contrase(?:ñ|n)a)s?\\b${CLAUSE}\\([ \\t]*["'“‘])([^"'“”‘’\\s]{8,128})(?=["'”’])`,
      'gi',
    ),
    replace: (m, r) => (bareSecret(m[2] ?? '') ? `${m[1]}${r}` : undefined),
  },
  {
    // "the password for staging is Harbor!2026x.", "log in as jdoe with password Pa55w0rd-dev!42".
    kind: 'password',
    pattern: new RegExp(
      `(\\b${CREDENTIAL}\\b${CLAUSE}\\b(?:is|are|was|were|remains|set to|changed to|es|son|era|sigue siendo)[ \\t]+|\\bwith[ \\t]+(?:the[ \\t]+)?(?:password|passphrase|passcode)[ \\t]+|${PASSWORD_TO})(?!\\[REDACTED:)([^\\s"'\`,;]{8,128})`,
      'gi',
    ),
    replace: replaceBareValue,
  },
];
