/**
 * Strata's own redaction rules: what secretlint's preset does not cover because it is about how
 * credentials appear in agent conversations rather than in repositories — labelled assignments,
 * credentials inside shell commands (`curl -u`, `sshpass -p`, `PGPASSWORD=`...), connection
 * strings, `.pgpass` lines, prose ("the wifi password is ..."), and vendor formats the preset lacks
 * or matches only in their exact current length (looser forms here catch older and truncated
 * ones). Every rule is anchored on a prefix, a structure or a label, so prose is left alone.
 */
export interface Rule {
  /** Fixed, or derived from the match (`password=` vs `token=`). */
  kind: string | ((match: RegExpExecArray) => string);
  pattern: RegExp;
  /** Builds the replacement from the match; return `undefined` to keep the match as it is. */
  replace?: (match: RegExpExecArray, marker: string) => string | undefined;
}

// Token characters: a secret ends where these stop, so `sk-...abc.` keeps its full stop.
const NOT_TOKEN_BEFORE = '(?<![A-Za-z0-9_\\-])';
const NOT_TOKEN_AFTER = '(?![A-Za-z0-9_\\-])';
const tokenRe = (body: string, flags = 'g'): RegExp => new RegExp(`${NOT_TOKEN_BEFORE}${body}${NOT_TOKEN_AFTER}`, flags);
const hasDigit = (s: string): boolean => /\d/.test(s);
const hasLetter = (s: string): boolean => /[A-Za-z]/.test(s);
const ALREADY_REDACTED = /^\[REDACTED:/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Values that name a secret rather than contain one: `$VAR`, `${VAR}`, `<your-key>`, `process.env.X`, `***`. */
export function isPlaceholder(raw: string): boolean {
  const value = raw.replace(/[,;]+$/, '');
  return (
    /^[\w.-]*\/[\w./-]*\.[a-z]{1,5}$/i.test(value) || // a file path such as logs/run.jsonl
    ALREADY_REDACTED.test(value) ||
    !/[A-Za-z0-9]/.test(value) || // `", "`, `**`: punctuation from code or JSON, not a credential
    /redacted|\.\.\.|…|\*{3}|\$\{/i.test(value) || // already masked by another tool, elided (`ghp_...`), or a template
    /example|dummy|placeholder|your[_-]?(?:key|token|secret|password)|not[_-]?real|x{6,}/i.test(value) ||
    /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+[,;]?$/.test(value) || // a member access such as data.token
    /^(?:[A-Za-z]:)?\\/.test(value) || // a Windows path
    /[[\](){}]/.test(value) || // code: line[a:b], f(x)
    /^(?:await|async|new|this|self|return|function|lambda|const|let|var)$/.test(value) ||
    /^(?:\$|%|<|\{|=|>|\*{3,}|x{3,}$|\.{3}|…)/i.test(value) ||
    /^(?:process\.env|os\.environ|env\.|getenv|secrets\.)/i.test(value) ||
    /^[A-Za-z_$][\w.$]*\(/.test(value) || // a call such as getPassword()
    /^(?:null|none|undefined|true|false|empty|redacted|changeme|required|optional|string)$/i.test(value)
  );
}

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** A bearer credential mixes letters and digits; "Bearer authentication" does not. */
const looksLikeToken = (value: string): boolean => hasDigit(value) && hasLetter(value);

/** Whether a labelled value looks machine-generated rather than like a word. */
function looksRandom(value: string): boolean {
  if (value.length < 16 || UUID.test(value)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[_\-+/=.]/].filter((re) => re.test(value)).length;
  return classes >= 2 && hasDigit(value) && entropy(value) >= 3;
}

/** A bare command-line value is a password unless it is a word of prose or a placeholder. */
function commandSecret(value: string): boolean {
  const v = value.replace(/^["']|["']$/g, '');
  return v.length > 0 && !isPlaceholder(v) && !/^-/.test(v);
}

// Labels of assignments: `password=...`, `DB_PASSWORD: ...`, `"api_key": "..."`, `?token=...`.
// A prefix must end in `_`/`-` so that `max_tokens=100` or `tokenizer: x` do not match.
const LABEL_KINDS: Array<[RegExp, string]> = [
  [/(?:password|passwd|passphrase|pwd|pass)$/i, 'password'],
  [/api[_-]?key$/i, 'api-key'],
  [/secret(?:[_-]?(?:key|access[_-]?key))?$/i, 'secret'],
  [/token$/i, 'token'],
];
const labelKind = (label: string): string => LABEL_KINDS.find(([re]) => re.test(label))?.[1] ?? 'secret';

// Prefix segments are bounded: an unbounded `(?:\w+-)*` rescans to the end of text like `a-a-a-...`
// from every start position (quadratic time).
const ASSIGNMENT_KEY =
  '(?:[A-Za-z0-9]+[_-]){0,4}(?:password|passwd|passphrase|pwd|api[_-]?key|secret(?:[_-]?(?:key|access[_-]?key))?|(?:access[_-]?|auth[_-]?|refresh[_-]?|session[_-]?|id[_-]?|bearer[_-]?)?token)';
const ASSIGNMENT_SEPARATOR = '[ \\t]*(?::=|=>|:|=)[ \\t]*';
const ASSIGNMENT = new RegExp(
  `(?<![A-Za-z0-9_])(["']?)(${ASSIGNMENT_KEY})\\1(${ASSIGNMENT_SEPARATOR})` +
    // The value must not be the next assignment (`token: client_secret='x'`), or that one's secret would be skipped.
    `(?!["']?${ASSIGNMENT_KEY}["']?${ASSIGNMENT_SEPARATOR})` +
    // `&` ends a value only where a URL query's next parameter starts (`?token=x&page=2`), not inside `Harbor&1792`.
    '(?:"([^"\\n]{1,512})"|\'([^\'\\n]{1,512})\'|((?:[^\\s"\'`,;&<>)\\]}]|&(?![\\w.\\-\\[\\]]*=)){1,512}))',
  'gi',
);

const keep = (prefix: string | undefined, r: string, suffix = ''): string => `${prefix ?? ''}${r}${suffix}`;

export const RULES: Rule[] = [
  {
    // Whole PEM block; an unterminated block is cut after its base64 lines.
    kind: 'private-key',
    pattern:
      // The body is base64 lines and PEM headers (a regex or prose between the markers is not a key).
      /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----(?:[A-Za-z0-9+/=\s:,.\\-]*?-----END \1-----|(?:(?:\\n|\r?\n)[ \t]*(?:[A-Za-z0-9+/=]{8,}|[A-Za-z-]+: [^\n]*))*)/g,
  },
  { kind: 'anthropic-key', pattern: tokenRe('sk-ant-[A-Za-z0-9_\\-]{20,}') },
  { kind: 'openrouter-key', pattern: tokenRe('sk-or-[A-Za-z0-9_\\-]{20,}') },
  // Project/service keys carry a prefix; legacy keys are 20+ alphanumerics mixing letters and digits.
  { kind: 'openai-key', pattern: tokenRe('sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\\-]{20,}') },
  {
    kind: 'openai-key',
    pattern: tokenRe('sk-[A-Za-z0-9]{20,}'),
    replace: (m, r) => (hasDigit(m[0].slice(3)) && hasLetter(m[0].slice(3)) ? r : undefined),
  },
  { kind: 'stripe-key', pattern: tokenRe('(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}') },
  { kind: 'github-token', pattern: tokenRe('(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})') },
  { kind: 'gitlab-token', pattern: tokenRe('gl(?:pat|dt|ptt|rt|cbt|soat|ft|imt|agent)-[A-Za-z0-9_\\-]{20,}') },
  { kind: 'huggingface-token', pattern: tokenRe('hf_[A-Za-z0-9]{30,}') },
  { kind: 'npm-token', pattern: tokenRe('npm_[A-Za-z0-9]{36}') },
  { kind: 'aws-access-key', pattern: tokenRe('(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}') },
  {
    kind: 'aws-secret-key',
    pattern:
      /\b(aws_secret_access_key|aws_secret_key|secret_access_key|AWS_SECRET|aws_session_token)(["']?[ \t]*[:=][ \t]*["']?)([A-Za-z0-9/+=]{30,})/gi,
    replace: (m, r) => `${m[1]}${m[2]}${r}`,
  },
  { kind: 'google-api-key', pattern: tokenRe('AIza[0-9A-Za-z_\\-]{35}') },
  { kind: 'google-oauth-secret', pattern: tokenRe('GOCSPX-[A-Za-z0-9_\\-]{20,}') },
  { kind: 'slack-token', pattern: tokenRe('(?:xox[baprse]-[A-Za-z0-9-]{10,}|xapp-\\d-[A-Za-z0-9-]{10,})') },
  { kind: 'slack-webhook', pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{20,}/g },
  { kind: 'discord-webhook', pattern: /https:\/\/(?:canary\.|ptb\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]{20,}/g },
  { kind: 'sendgrid-key', pattern: tokenRe('SG\\.[A-Za-z0-9_\\-]{16,32}\\.[A-Za-z0-9_\\-]{30,64}') },
  { kind: 'digitalocean-token', pattern: tokenRe('do[opr]_v1_[a-f0-9]{64}') },
  { kind: 'vault-token', pattern: tokenRe('hv[sbr]\\.[A-Za-z0-9_\\-]{20,}') },
  { kind: 'twilio-key', pattern: tokenRe('SK[0-9a-fA-F]{32}') },
  { kind: 'mailgun-key', pattern: tokenRe('key-[0-9a-zA-Z]{32}') },
  { kind: 'telegram-bot-token', pattern: /(?<![\w:])\d{8,10}:AA[A-Za-z0-9_-]{32,33}(?![\w-])/g },
  { kind: 'pypi-token', pattern: tokenRe('pypi-AgE[A-Za-z0-9_\\-]{50,}') },
  { kind: 'shopify-token', pattern: tokenRe('shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}') },
  { kind: 'databricks-token', pattern: tokenRe('dapi[a-f0-9]{32}(?:-\\d)?') },
  {
    // Twilio auth token: 32 hex, only beside a Twilio account SID or the vendor's name (a bare 32-hex string is an MD5).
    kind: 'twilio-auth-token',
    pattern: /((?:\bAC[0-9a-f]{32}\b|twilio)[^\n]{0,120}?)(?<![0-9a-fA-F])([0-9a-f]{32})(?![0-9a-fA-F])/gi,
    replace: (m, r) => `${m[1]}${r}`,
  },
  {
    // Azure storage / Service Bus / Event Hubs connection strings and SAS signatures.
    kind: 'azure-key',
    pattern: /\b((?:AccountKey|SharedAccessKey|SharedSecretValue|PrimaryKey|SecondaryKey)[ \t]*=[ \t]*)([A-Za-z0-9+/=]{20,})/gi,
    replace: (m, r) => `${m[1]}${r}`,
  },
  { kind: 'azure-sas', pattern: /([?&;]sig=)([A-Za-z0-9%+/=]{20,})/gi, replace: (m, r) => `${m[1]}${r}` },
  { kind: 'jwt', pattern: tokenRe('eyJ[A-Za-z0-9_\\-]{8,}\\.[A-Za-z0-9_\\-]{8,}\\.[A-Za-z0-9_\\-]{8,}') },
  {
    kind: 'basic-auth',
    pattern: /\b(Authorization[ \t]*:[ \t]*Basic[ \t]+)([A-Za-z0-9+/]{8,}={0,2})/gi,
    replace: (m, r) => `${m[1]}${r}`,
  },
  {
    // `Bearer <token>`: the token must look generated, so "bearer of bad news" stays.
    kind: 'bearer-token',
    pattern: /\b(Bearer[ \t]+)([A-Za-z0-9\-._~+/]{16,}=*)/gi,
    replace: (m, r) => (looksLikeToken(m[2] ?? '') ? `${m[1]}${r}` : undefined),
  },
  {
    // scheme://user:password@host -> keep user and host.
    kind: 'url-password',
    // Greedy up to the last `@` of the authority, so a password containing `@` is removed whole.
    // `?` and `#` may be part of a pasted (unencoded) password; an all-digit "password" is a port.
    pattern: /\b([a-z][a-z0-9+.-]{0,31}:\/\/)([^\s:/?#@[\]]*):(?!\[REDACTED:|\d+@)([^\s/]+)@/gi,
    replace: (m, r) => `${m[1]}${m[2]}:${r}@`,
  },
  {
    // `curl -u user:pw`, `--user user:pw`, `wget --http-password pw` (curl's user:pw form only with a password part).
    kind: 'password',
    pattern: /(?<![\w-])(-u|--user|--proxy-user)([ \t]+|=)(["']?)([^\s:"'@]{1,128}):(?!\[REDACTED:)([^\s"']{1,256})\3/g,
    replace: (m, r) => (commandSecret(m[5] ?? '') ? `${m[1]}${m[2]}${m[3]}${m[4]}:${r}${m[3]}` : undefined),
  },
  {
    // `sshpass -p pw`, `docker login -p pw`, `mysql -p pw` style short password flags of well-known tools.
    kind: 'password',
    pattern:
      /(\b(?:sshpass|docker(?:[ \t]+login)?|podman(?:[ \t]+login)?|helm(?:[ \t]+registry)?[ \t]+login|oras[ \t]+login|skopeo[ \t]+login|buildah[ \t]+login|smbclient|redis-cli|rabbitmqctl|htpasswd|ldapsearch|ldapadd|ldapmodify|net[ \t]+use)\b[^\n|;&]{0,200}?[ \t])(-p|-w|-a|--password|--pass)([ \t]+|=)(?!-|\[REDACTED:)("[^"\n]{1,256}"|'[^'\n]{1,256}'|[^\s"'`|;&]{1,256})/g,
    replace: (m, r) => (commandSecret(m[4] ?? '') ? `${m[1]}${m[2]}${m[3]}${r}` : undefined),
  },
  {
    // `mysql -uroot -pS3cret db`: MySQL tools take the password glued to -p.
    kind: 'password',
    pattern:
      /(\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mariadb|mariadb-dump)\b[^\n|;&]{0,200}?[ \t]-p)(?!\[REDACTED:)("[^"\n]{1,256}"|'[^'\n]{1,256}'|[^\s"'`|;&]{1,256})/g,
    replace: (m, r) => (commandSecret(m[2] ?? '') ? `${m[1]}${r}` : undefined),
  },
  {
    // openssl `-pass pass:pw`, `-passin pass:pw`, `-k pw` and friends (`env:`/`file:` name a source, not a secret).
    kind: 'password',
    pattern: /((?:^|[ \t])-(?:pass|passin|passout|password|k|kfile)?[ \t]+pass:)(?!\[REDACTED:)(\S{1,256})/gm,
    replace: (m, r) => `${m[1]}${r}`,
  },
  {
    // Environment-style credentials: PGPASSWORD=x, MYSQL_PWD=x, REDISCLI_AUTH=x, export DB_PASS="x".
    kind: 'password',
    pattern:
      /(?<![A-Za-z0-9_])((?:[A-Z0-9]+_){0,4}(?:PGPASSWORD|PASSWORD|PASSWD|PWD|PASS|PASSPHRASE|AUTH|SECRET))([ \t]*=[ \t]*)(?!\[REDACTED:)("[^"\n]{1,512}"|'[^'\n]{1,512}'|[^\s"'`;&|]{1,512})/g,
    replace: (m, r) => {
      const value = (m[3] ?? '').replace(/^["']|["']$/g, '');
      if (!value || isPlaceholder(value) || /^[/~]|^\.\.?\//.test(value)) return undefined;
      const q = /^["']/.test(m[3] ?? '') ? (m[3] ?? '')[0]! : '';
      return `${m[1]}${m[2]}${q}${r}${q}`;
    },
  },
  {
    // `.pgpass` lines: host:port:database:user:password.
    kind: 'password',
    pattern: /^([ \t]*[A-Za-z0-9_.*-]+:(?:\d{1,5}|\*):[A-Za-z0-9_.*-]+:[A-Za-z0-9_.@*-]+:)(?!\[REDACTED:)(\S{1,256})[ \t]*$/gm,
    // Only where the text is about a pgpass file: `file:25:name:x:y` is also what grep -n prints.
    replace: (m, r) => (/pgpass/i.test(m.input) ? `${m[1]}${r}` : undefined),
  },
  {
    // `.netrc` entries: machine host login user password pw.
    kind: 'password',
    pattern: /(\bmachine[ \t]+\S+[ \t]+(?:login[ \t]+\S+[ \t]+)?password[ \t]+)(?!\[REDACTED:)(\S{1,256})/g,
    replace: (m, r) => `${m[1]}${r}`,
  },
  {
    // ADO.NET / ODBC / JDBC connection strings: `Password=x;`, `Pwd=x;`.
    kind: 'password',
    // Like ASSIGNMENT, the value is never the next assignment (`password = DB_PASSWD: "x"`): that one holds the secret.
    pattern: new RegExp(
      `(\\b(?:Password|Pwd)[ \\t]*=[ \\t]*)(?!\\[REDACTED:)(?!["']?${ASSIGNMENT_KEY}["']?${ASSIGNMENT_SEPARATOR})` +
        `("[^"\\n]{1,256}"|'[^'\\n]{1,256}'|[^;\\s"']{1,256})`,
      'gi',
    ),
    replace: (m, r) => {
      const value = (m[2] ?? '').replace(/^["']|["']$/g, '');
      return isPlaceholder(value) || /^[/~]/.test(value) ? undefined : `${m[1]}${r}`;
    },
  },
  {
    // YAML / config lines: `  password: Harbor&1792` (a whole-line scalar may hold `&`, which ends a URL query value).
    kind: (m) => labelKind(m[2] ?? ''),
    pattern: new RegExp(`^([ \\t-]*["']?)(${ASSIGNMENT_KEY})(["']?[ \\t]*:[ \\t]+)(?!\\[REDACTED:)([^\\s#"'][^\\s]{0,511})[ \\t]*$`, 'gim'),
    replace: (m, r) => {
      const value = m[4] ?? '';
      if (isPlaceholder(value) || !/[\d\W_]/.test(value.replace(/[.:!?]+$/, ''))) return undefined;
      return `${m[1]}${m[2]}${m[3]}${r}`;
    },
  },
  {
    kind: (m) => labelKind(m[2] ?? ''),
    pattern: ASSIGNMENT,
    replace: (m, r) => {
      const [, quote = '', key = '', separator = ''] = m;
      const value = m[4] ?? m[5] ?? m[6] ?? '';
      if (isPlaceholder(value)) return undefined;
      // `pwd=/home/me` is a shell variable, not a password.
      if (/^pwd$/i.test(key) && /^[/~]/.test(value)) return undefined;
      // `password: it is on the sticky note` is prose; after a colon a bare value must hold a digit or symbol.
      if (separator.trim() === ':' && m[6] !== undefined && !/[\d\W_]/.test(value.replace(/[.:!?]+$/, ''))) return undefined;
      // `generic-api-key:276` (a line number in a scanner's report) is not a credential.
      if (separator === ':' && /^\d{1,5}:?$/.test(value)) return undefined;
      const q = m[4] !== undefined ? '"' : m[5] !== undefined ? "'" : '';
      return `${quote}${key}${quote}${separator}${q}${r}${q}`;
    },
  },
  {
    // Command-line flags with a separate value: `--password hunter2`, `--api-key abc123`.
    kind: (m) => labelKind(m[1] ?? ''),
    pattern:
      /(?<![\w-])(--(?:[a-z0-9]+-){0,3}(?:password|passwd|passphrase|api-?key|secret|token))([ \t]+)(?!-|\[REDACTED:)("[^"\n]{1,512}"|'[^'\n]{1,512}'|[^\s"'`]{1,512})/gi,
    replace: (m, r) => {
      const value = m[3] ?? '';
      if (isPlaceholder(value.replace(/^["']|["']$/g, ''))) return undefined;
      // "use the --token flag" is prose: an unquoted value must hold a digit or a symbol.
      if (!/^["']/.test(value) && !/[\d\W_]/.test(value.replace(/[.,;:!?)]+$/, ''))) return undefined;
      return `${m[1]}${m[2]}${r}`;
    },
  },
  {
    // Prose: "the wifi password is hunter2", "door code: 4711", "my PIN was '0000'".
    kind: 'password',
    pattern:
      /\b((?:wi-?fi|wlan|network|router|guest|door|gate|alarm|safe|locker|garage|phone|sim|bank|atm|laptop|admin|root|my|our|his|her|their|the|new|old)[ \t]+(?:password|passcode|passphrase|pin|code|key|pw))(?![A-Za-z])((?:[ \t]+(?:is|was|are|will be|=)|[ \t]*[:=])[ \t]*(?:now[ \t]+|still[ \t]+|set to[ \t]+|changed to[ \t]+)?)("[^"\n]{1,128}"|'[^'\n]{1,128}'|`[^`\n]{1,128}`|[^\s"'`,;]{1,128})/gi,
    replace: (m, r) => {
      const raw = m[3] ?? '';
      const quoted = /^["'`]/.test(raw);
      const value = raw.replace(/^["'`]|["'`]$/g, '').replace(/[.!?)]+$/, '');
      if (!value || isPlaceholder(value) || PROSE_STOPWORDS.has(value.toLowerCase()) || FILE_REFERENCE.test(value)) return undefined;
      if (!quoted && !/[\d\W_]/.test(value) && !/[a-z][A-Z]|[A-Z]{2}/.test(value)) {
        // A plain word counts only after a device label ("wifi password is sunshine."), ending the clause, and not an adjective.
        const weakLabel = /^(?:my|our|his|her|their|the|new|old)\b/i.test(m[1] ?? '');
        const after = m.input.slice(m.index + m[0].length - (raw.length - value.length));
        const vagueLabel = /\b(?:key|code)$/i.test(m[1] ?? '');
        if (weakLabel || !/^(?:[.,;!?)]|\s*$|\s*\n)/.test(after) || (vagueLabel && ADJECTIVE.test(value))) return undefined;
      }
      const tail = raw.slice(raw.replace(/[.!?)]+$/, '').length);
      return quoted ? `${m[1]}${m[2]}${raw[0]}${r}${raw[0]}` : `${m[1]}${m[2]}${r}${tail}`;
    },
  },
  {
    // Generic high-entropy string, only right after a label: "my API key is 9fK2...", "secret: ...".
    kind: 'labelled-secret',
    pattern:
      /\b((?:api|access|secret|signing|private|encryption|auth|client|master|service)[ _-]?(?:key|secret|token)|secret|token|credential|password|passphrase)(?![A-Za-z0-9_])((?:[ \t]+(?:is|was|=))?[ \t]*[:=]?[ \t]*["'`]?)([A-Za-z0-9+/_\-=.]{16,})/gi,
    replace: (m, r) =>
      looksRandom(m[3] ?? '') && !isOpenPgpKeyId(m) && !FILE_REFERENCE.test(m[3] ?? '') ? keep(m[1], '', m[2]) + r : undefined,
  },
];

/**
 * An OpenPGP key ID or fingerprint (16 or 40 hex digits) after "signing key" in a GPG context, or git's
 * `user.signingkey`: public identifiers, published on key servers, that name the key without giving it away.
 */
function isOpenPgpKeyId(m: RegExpExecArray): boolean {
  if (!/^(?:0x)?(?:[0-9A-F]{16}|[0-9A-F]{40})$/i.test(m[3] ?? '')) return false;
  const before = m.input.slice(Math.max(0, m.index - 60), m.index + (m[1]?.length ?? 0));
  return /\b(?:gpg|pgp|openpgp|gnupg|gpg4win)\b|user\.signingkey$/i.test(before);
}

/** A file, maybe with a line: "our code is `live.ex:25:guard_fail`", "api-key: CHAT_LOGS/c7d2….jsonl" (a scanner's report). */
const FILE_REFERENCE = /^[\w./-]+\.[a-z]{1,5}(?::\d|$)/i;

const ADJECTIVE = /(?:ant|ent|ful|ive|able|ible|ed|ing|ous|al|less|ic|ary|ory)$/i;

/** Words that follow "password is" in prose without being one. */
const PROSE_STOPWORDS = new Set(
  (
    'a an the is was not no none wrong right correct incorrect invalid valid missing empty blank set unset stored saved ' +
    'required needed optional expired changed reset same different too very still also now here there in on at of for to ' +
    'secure insecure weak strong long short hidden visible encrypted hashed known unknown there? what which where this that it ' +
    'yours mine ours theirs his hers fine ok okay good bad protected stale old new default'
  ).split(' '),
);
