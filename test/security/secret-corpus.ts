/**
 * Planted-secret corpus: one generator per secret kind, each producing a fresh random value on
 * every call (crypto randomness, so no run repeats another) inside the sentence, command or
 * config line it would appear in. `secret` is the part that must never reach disk.
 */
import { randomBytes, randomInt } from 'node:crypto';

export interface PlantedSecret {
  kind: string;
  text: string;
  secret: string;
}

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const HEX = '0123456789abcdef';
const B64 = `${ALNUM}+/`;
const URLSAFE = `${ALNUM}_-`;

export function pick(chars: string, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += chars[randomInt(chars.length)];
  return out;
}
/** Random text of a class that is guaranteed to mix upper, lower and digits (real keys do). */
function mixed(chars: string, n: number): string {
  for (;;) {
    const s = pick(chars, n);
    if (/[a-z]/.test(s) && /[A-Z]/.test(s) && /\d/.test(s)) return s;
  }
}
/** A human password: word-ish with digits and a symbol. */
function password(): string {
  const words = ['Sunset', 'Harbor', 'Maple', 'Quartz', 'Falcon', 'Cobalt', 'Meadow', 'Tango', 'Ember', 'Willow'];
  return `${words[randomInt(words.length)]}${pick('!#%&*+?@^', 1)}${randomInt(100, 9999)}${pick(ALNUM, 3)}`;
}
function luhnComplete(prefix: string, length: number): string {
  const digits = prefix + pick('0123456789', length - prefix.length - 1);
  for (let check = 0; check <= 9; check++) {
    const candidate = digits + check;
    let sum = 0;
    for (let i = 0; i < candidate.length; i++) {
      let d = Number(candidate[candidate.length - 1 - i]);
      if (i % 2 === 1) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
    }
    if (sum % 10 === 0) return candidate;
  }
  throw new Error('unreachable: one check digit always fits');
}
const groups = (digits: string, sep: string, sizes: number[]): string => {
  const out: string[] = [];
  let at = 0;
  for (const n of sizes) {
    out.push(digits.slice(at, at + n));
    at += n;
  }
  return out.join(sep);
};

type Generator = () => PlantedSecret;
const g = (kind: string, make: () => { text: string; secret: string }): [string, Generator] => [kind, () => ({ kind, ...make() })];
const s = (kind: string, secret: () => string, wrap: (v: string) => string): [string, Generator] =>
  g(kind, () => {
    const v = secret();
    return { text: wrap(v), secret: v };
  });

export const GENERATORS: Array<[string, Generator]> = [
  s(
    'aws-access-key',
    () => `AKIA${pick(UPPER_ALNUM, 16)}`,
    (v) => `The deploy user's access key id is ${v}, region eu-west-1.`,
  ),
  s(
    'aws-secret-key',
    () => mixed(B64, 40),
    (v) => `aws_secret_access_key = ${v}`,
  ),
  s(
    'aws-session-token',
    () => `IQoJb3JpZ2luX2Vj${mixed(B64, 120)}`,
    (v) => `export AWS_SESSION_TOKEN=${v}`,
  ),
  s(
    'gcp-api-key',
    () => `AIza${pick(URLSAFE, 35)}`,
    (v) => `maps key: ${v}`,
  ),
  s(
    'gcp-oauth-secret',
    () => `GOCSPX-${pick(URLSAFE, 28)}`,
    (v) => `client secret GOCSPX for the web app: ${v}`,
  ),
  s(
    'gcp-service-account-key',
    () => mixed(B64, 64),
    (v) =>
      `{"type": "service_account", "private_key_id": "${pick(HEX, 40)}", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC${v}\\n-----END PRIVATE KEY-----\\n"}`,
  ),
  s(
    'azure-storage-key',
    () => `${mixed(B64, 86)}==`,
    (v) => `DefaultEndpointsProtocol=https;AccountName=prodlogs;AccountKey=${v};EndpointSuffix=core.windows.net`,
  ),
  s(
    'azure-servicebus-key',
    () => `${mixed(B64, 43)}=`,
    (v) => `Endpoint=sb://orders.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${v}`,
  ),
  s(
    'azure-sas',
    () => mixed(B64, 43).replace(/\//g, '%2F'),
    (v) => `https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&ss=b&sp=r&se=2030-01-01&sig=${v}`,
  ),
  s(
    'openai-key',
    () => `sk-proj-${mixed(URLSAFE, 58)}T3BlbkFJ${mixed(URLSAFE, 58)}`,
    (v) => `OPENAI_API_KEY=${v}`,
  ),
  s(
    'openai-legacy-key',
    () => `sk-${mixed(ALNUM, 48)}`,
    (v) => `use ${v} for the batch job`,
  ),
  s(
    'anthropic-key',
    () => `sk-ant-api03-${mixed(URLSAFE, 93)}AA`,
    (v) => `ANTHROPIC_API_KEY="${v}"`,
  ),
  s(
    'openrouter-key',
    () => `sk-or-v1-${pick(HEX, 64)}`,
    (v) => `openrouter: ${v}`,
  ),
  s(
    'groq-key',
    () => `gsk_${mixed(ALNUM, 52)}`,
    (v) => `groq key ${v}`,
  ),
  s(
    'huggingface-token',
    () => `hf_${pick('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', 34)}`,
    (v) => `huggingface-cli login --token ${v}`,
  ),
  s(
    'github-pat',
    () => `ghp_${mixed(ALNUM, 36)}`,
    (v) => `git clone https://${v}@github.com/acme/infra.git`,
  ),
  s(
    'github-fine-grained',
    () => `github_pat_${mixed(ALNUM, 22)}_${mixed(ALNUM, 59)}`,
    (v) => `GH token: ${v}`,
  ),
  s(
    'github-oauth',
    () => `gho_${mixed(ALNUM, 36)}`,
    (v) => `oauth token ${v} expires tomorrow`,
  ),
  s(
    'gitlab-pat',
    () => `glpat-${mixed(URLSAFE, 20)}`,
    (v) => `export GITLAB_TOKEN=${v}`,
  ),
  s(
    'slack-bot-token',
    () => `xoxb-${randomInt(1e11, 9e11)}-${randomInt(1e11, 9e11)}-${mixed(ALNUM, 24)}`,
    (v) => `SLACK_BOT_TOKEN=${v}`,
  ),
  s(
    'slack-webhook',
    () => `https://hooks.slack.com/services/T${pick(UPPER_ALNUM, 8)}/B${pick(UPPER_ALNUM, 10)}/${mixed(ALNUM, 24)}`,
    (v) => `post alerts to ${v}`,
  ),
  s(
    'discord-webhook',
    () => `https://discord.com/api/webhooks/${randomInt(1e9, 9e9)}${randomInt(1e8, 9e8)}/${mixed(URLSAFE, 68)}`,
    (v) => `webhook ${v}`,
  ),
  s(
    'stripe-live-key',
    () => `sk_live_${mixed(ALNUM, 24)}`,
    (v) => `Stripe.api_key = "${v}"`,
  ),
  s(
    'stripe-restricted-key',
    () => `rk_live_${mixed(ALNUM, 99)}`,
    (v) => `restricted key ${v}`,
  ),
  s(
    'sendgrid-key',
    () => `SG.${pick(URLSAFE, 22)}.${pick(URLSAFE, 43)}`,
    (v) => `sg = SendGridAPIClient('${v}')`,
  ),
  s(
    'twilio-api-key',
    () => `SK${pick(HEX, 32)}`,
    (v) => `twilio api key sid ${v}`,
  ),
  s(
    'twilio-auth-token',
    () => pick(HEX, 32),
    (v) => `client = Client("AC${pick(HEX, 32)}", "${v}")`,
  ),
  s(
    'twilio-auth-token-env',
    () => pick(HEX, 32),
    (v) => `TWILIO_AUTH_TOKEN=${v}`,
  ),
  s(
    'mailgun-key',
    () => `key-${mixed(LOWER_ALNUM + 'ABC', 32)}`,
    (v) => `mailgun api key-based auth: ${v}`,
  ),
  s(
    'digitalocean-token',
    () => `dop_v1_${pick(HEX, 64)}`,
    (v) => `doctl auth init -t ${v}`,
  ),
  s(
    'vault-token',
    () => `hvs.${mixed(URLSAFE, 24)}`,
    (v) => `VAULT_TOKEN=${v} vault kv get secret/app`,
  ),
  s(
    'vault-token-long',
    () => `hvs.${mixed(URLSAFE, 95)}`,
    (v) => `vault login ${v}`,
  ),
  s(
    'npm-token',
    () => `npm_${mixed(ALNUM, 36)}`,
    (v) => `//registry.npmjs.org/:_authToken=${v}`,
  ),
  s(
    'pypi-token',
    () => `pypi-AgEIcHlwaS5vcmc${mixed(URLSAFE, 70)}`,
    (v) => `twine upload -u __token__ -p ${v} dist/*`,
  ),
  s(
    'docker-pat',
    () => `dckr_pat_${pick(URLSAFE, 27)}`,
    (v) => `docker hub token ${v}`,
  ),
  s(
    'telegram-bot-token',
    () => `${randomInt(1e8, 9e9)}:AA${pick(URLSAFE, 33)}`,
    (v) => `bot = Bot(token="${v}")`,
  ),
  s(
    'shopify-token',
    () => `shpat_${pick(HEX, 32)}`,
    (v) => `X-Shopify-Access-Token: ${v}`,
  ),
  s(
    'databricks-token',
    () => `dapi${pick(HEX, 32)}`,
    (v) => `databricks configure --token ${v}`,
  ),
  s(
    'jwt',
    () =>
      `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from(JSON.stringify({ sub: pick(ALNUM, 8), iat: randomInt(1e9, 2e9) })).toString('base64url')}.${pick(URLSAFE, 43)}`,
    (v) => `the session cookie was ${v}`,
  ),
  s(
    'bearer-token',
    () => mixed(ALNUM, 40),
    (v) => `curl -H "Authorization: Bearer ${v}" https://api.acme.io/v1/me`,
  ),
  s(
    'basic-auth-header',
    () => Buffer.from(`svc:${password()}`).toString('base64'),
    (v) => `Authorization: Basic ${v}`,
  ),
  s(
    'postgres-url',
    () => password(),
    (v) => `DATABASE_URL=postgres://app:${v}@db.internal:5432/prod`,
  ),
  s(
    'mysql-url',
    () => password(),
    (v) => `jdbc:mysql://root:${v}@10.0.0.5:3306/shop`,
  ),
  s(
    'mongodb-url',
    () => password(),
    (v) => `mongodb+srv://admin:${v}@cluster0.abcde.mongodb.net/test`,
  ),
  s(
    'redis-url',
    () => password(),
    (v) => `REDIS_URL=redis://default:${v}@cache:6379/0`,
  ),
  s(
    'amqp-url',
    () => password(),
    (v) => `amqp://guest:${v}@rabbit:5672/`,
  ),
  s(
    'private-key-rsa',
    () => mixed(B64, 64),
    (v) => `-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA${mixed(B64, 48)}\n${v}\n-----END RSA PRIVATE KEY-----`,
  ),
  s(
    'private-key-openssh',
    () => mixed(B64, 70),
    (v) => `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n${v}\n-----END OPENSSH PRIVATE KEY-----`,
  ),
  s(
    'password-assignment',
    () => password(),
    (v) => `db_password = "${v}"`,
  ),
  s(
    'password-yaml',
    () => password(),
    (v) => `  password: ${v}`,
  ),
  s(
    'password-flag',
    () => password(),
    (v) => `psql --host db --password ${v}`,
  ),
  s(
    'curl-user',
    () => password(),
    (v) => `curl -u admin:${v} https://jenkins.acme.io/api/json`,
  ),
  s(
    'curl-user-long',
    () => password(),
    (v) => `curl --user "deploy:${v}" -X POST https://ci/hook`,
  ),
  s(
    'sshpass',
    () => password(),
    (v) => `sshpass -p '${v}' ssh root@10.0.0.7`,
  ),
  s(
    'sshpass-bare',
    () => password(),
    (v) => `sshpass -p ${v} scp backup.tar host:/srv`,
  ),
  s(
    'docker-login',
    () => password(),
    (v) => `docker login -u ci -p ${v} registry.acme.io`,
  ),
  s(
    'pgpassword',
    () => password(),
    (v) => `PGPASSWORD=${v} psql -h db -U app -c 'select 1'`,
  ),
  s(
    'mysql-p',
    () => password(),
    (v) => `mysql -u root -p${v} shop < dump.sql`,
  ),
  s(
    'mysqldump-p',
    () => password(),
    (v) => `mysqldump -uroot -p'${v}' --all-databases > all.sql`,
  ),
  s(
    'openssl-pass',
    () => password(),
    (v) => `openssl pkcs12 -export -in cert.pem -inkey key.pem -out cert.p12 -passout pass:${v}`,
  ),
  s(
    'openssl-passin',
    () => password(),
    (v) => `openssl rsa -in enc.key -passin pass:${v} -out plain.key`,
  ),
  s(
    'pgpass-line',
    () => password(),
    (v) => `~/.pgpass contains:\ndb.internal:5432:prod:app:${v}`,
  ),
  s(
    'wifi-password',
    () => password(),
    (v) => `The wifi password is ${v} for the guest network.`,
  ),
  s(
    'wifi-password-word',
    () =>
      `${pick('bcdfghjklmnpqrstvwxz', 1)}${pick('aeiou', 1)}${pick('bcdfghjklmnpqrstvwxz', 1)}${pick('aeiou', 1)}${pick('bcdfghjklmnpqrstvwxz', 1)}${pick('aeiou', 1)}${pick('bcdfghjklmnpqrstvwxz', 1)}`,
    (v) => `wifi password is ${v}.`,
  ),
  // 7 digits: shorter numbers occur by chance in the scanned binary files.
  s(
    'door-code',
    () => String(randomInt(1_000_000, 9_999_999)),
    (v) => `The door code is ${v}.`,
  ),
  s(
    'env-secret',
    () => mixed(ALNUM, 32),
    (v) => `export APP_SECRET=${v}`,
  ),
  s(
    'api-key-header',
    () => mixed(ALNUM, 32),
    (v) => `curl -H 'x-api-key: ${v}' https://api`,
  ),
  s(
    'labelled-key-prose',
    () => mixed(ALNUM, 32),
    (v) => `my API key is ${v}, keep it safe`,
  ),
  s(
    'high-entropy-unlabelled',
    () => mixed(ALNUM, 40),
    (v) => `paste this into the config: ${v}`,
  ),
  s(
    'card-visa-spaces',
    () => groups(luhnComplete('4', 16), ' ', [4, 4, 4, 4]),
    (v) => `Card: ${v}, exp 09/29`,
  ),
  s(
    'card-mastercard-dashes',
    () => groups(luhnComplete(`5${randomInt(1, 6)}`, 16), '-', [4, 4, 4, 4]),
    (v) => `charge ${v} please`,
  ),
  s(
    'card-amex',
    () => groups(luhnComplete(`3${pick('47', 1)}`, 15), ' ', [4, 6, 5]),
    (v) => `amex ${v}`,
  ),
  s(
    'card-plain',
    () => luhnComplete('4', 16),
    (v) => `number ${v}`,
  ),
  s(
    'ado-connection-string',
    () => password(),
    (v) => `Server=tcp:sql.acme.net;Database=app;User Id=sa;Password=${v};`,
  ),
  // Told apart from the label, as extractors and people write them (redact-prose.ts).
  s(
    'passphrase-told',
    () => password(),
    (v) => `The passphrase for GPG key ${pick(HEX, 16).toUpperCase()} is \`${v}\`.`,
  ),
  s(
    'password-login-with',
    () => password(),
    (v) => `Log in to the staging admin as jdoe with password ${v} and check the queue.`,
  ),
  s(
    'password-for-prose',
    () => password(),
    (v) => `The password for the reporting database is "${v}", ask Ana for the prod one.`,
  ),
  s(
    'netrc',
    () => password(),
    (v) => `machine api.acme.io login bot password ${v}`,
  ),
];

/** One fresh secret of every kind. */
export function plantAll(): PlantedSecret[] {
  return GENERATORS.map(([, make]) => make());
}

export const SECRET_KINDS = GENERATORS.map(([kind]) => kind);
export const randomSuffix = (): string => randomBytes(4).toString('hex');
