import { describe, expect, it } from 'vitest';
import { admit } from './admission.js';
import { evidenceRejection, type EvidenceMessage } from './grounding.js';

const convo = (...texts: Array<[role: 'user' | 'assistant', text: string]>): EvidenceMessage[] =>
  texts.map(([role, text], i) => ({ id: `m${i + 1}`, role, text }));

const judge = (memory: string, messages: EvidenceMessage[], cited: string[]) => evidenceRejection(memory, { messages, cited })?.detail;

describe('evidenceRejection: a one-off request written as a standing rule', () => {
  const oneOff = convo(
    ['user', 'can you draft the reply to the landlord? write this one in German pls, his english isnt great'],
    ['assistant', 'Sure, here it is.'],
  );

  it('rejects "always" when the user asked once', () => {
    expect(judge('The user always wants messages written in German.', oneOff, ['m1'])).toBe('one-off made a rule');
  });

  it('keeps it when the user said it lasts, in any of the ways people do', () => {
    for (const said of [
      'from now on write my emails in German',
      'I always write to him in German',
      'we never use English with the landlord',
      'German for every letter to him please',
    ])
      expect(judge('The user always wants letters to the landlord written in German.', convo(['user', said]), ['m1'])).toBeUndefined();
  });

  it('reads a rule stated with a condition as lasting (the real cc-navuser transcript, line 46)', () => {
    const said = convo([
      'user',
      "The username I am logged in with is jnarowski but the menu says Guest User. We should use the initials from the username if name isn't present",
    ]);
    const memory =
      'The nav menu must show initials from the username when the user has no display name, never "Guest User" for a logged-in user.';
    expect(judge(memory, said, ['m1'])).toBeUndefined();
  });

  it('reads a user scolding the agent for a mistake as a rule that lasts (the real pi-theme transcript)', () => {
    const scolded = convo(['user', 'ffs stop putting emojis in the commit messages'], ['assistant', 'Sorry, rewording it.']);
    expect(judge('Commit messages must never contain emojis.', scolded, ['m1'])).toBeUndefined();
    const asked = convo(['user', 'reword the commit message, no emojis in it'], ['assistant', 'Done.']);
    expect(judge('Commit messages must never contain emojis.', asked, ['m1'])).toBe('one-off made a rule');
  });

  it('judges only a memory that generalises', () => {
    expect(judge('The user writes to the landlord in German.', oneOff, ['m1'])).toBeUndefined();
  });

  it("does not take the agent's words for the user's", () => {
    const agentSaid = convo(['user', 'make it shorter'], ['assistant', 'I will always keep replies short from now on.']);
    expect(judge('The user always wants short replies.', agentSaid, ['m1', 'm2'])).toBe('one-off made a rule');
  });

  it('leaves a lesson alone that cites only the agent', () => {
    const lesson = convo(
      ['user', 'why did the migration half-apply?'],
      ['assistant', 'Lesson: never run a migration outside a transaction.'],
    );
    expect(judge('Never run a migration outside a transaction.', lesson, ['m2'])).toBeUndefined();
  });

  it('reads "not formal at all" as no claim about every case', () => {
    const casual = convo(['user', 'draft a note to jo, keep it short and casual, shes not formal at all']);
    expect(judge('The user always wants messages kept short and casual.', casual, ['m1'])).toBe('one-off made a rule');
  });

  it('falls back to the user messages sharing a word with the memory when the citation is missing', () => {
    expect(judge('The user always wants messages written in German.', oneOff, [])).toBe('one-off made a rule');
    expect(judge('The user always wants tea.', oneOff, [])).toBeUndefined();
  });

  it('reads Spanish and Chinese', () => {
    const es = convo(['user', 'redacta este correo en tono formal porfa, es para el banco']);
    expect(judge('Manolo siempre quiere un tono formal en sus mensajes.', es, ['m1'])).toBe('one-off made a rule');
    const esStanding = convo(['user', 'a partir de ahora todos mis correos en tono formal']);
    expect(judge('Manolo siempre quiere un tono formal en sus mensajes.', esStanding, ['m1'])).toBeUndefined();
    const zh = convo(['user', '这封邮件用英文写']);
    expect(judge('用户总是希望邮件用英文写。', zh, ['m1'])).toBe('one-off made a rule');
    expect(judge('用户总是希望邮件用英文写。', convo(['user', '以后邮件都用英文写']), ['m1'])).toBeUndefined();
  });

  it('rejects a preference drawn from a request scoped to this task', () => {
    const scoped = convo(['user', 'skip the type hints this time, its a throwaway script']);
    expect(judge('The user prefers Python scripts without type hints.', scoped, ['m1'])).toBe('one-off made a rule');
    expect(judge('La usuaria prefiere informes sin gráficos.', convo(['user', 'sin graficos para este informe porfa']), ['m1'])).toBe(
      'one-off made a rule',
    );
    expect(judge('用户希望报告不要配图。', convo(['user', '这次报告先不要配图']), ['m1'])).toBe('one-off made a rule');
    // "temp log to console" (the real cc-windows transcript): a temporary request is scoped too.
    expect(judge('The user wants the resolver logs written to the console.', convo(['user', 'temp log to console']), ['m1'])).toBe(
      'one-off made a rule',
    );
    // "temp files" names a kind of file, not a scope.
    expect(
      judge('The user wants temp files written to /tmp/build.', convo(['user', 'put temp files in /tmp/build pls']), ['m1']),
    ).toBeUndefined();
    expect(
      judge('The user prefers Python scripts without type hints.', convo(['user', 'no type hints, i hate them']), ['m1']),
    ).toBeUndefined();
  });

  it('reads a standing reason beside a scoped request: the reason is kept, "never" is not', () => {
    const both = convo(['user', 'no emoji in the release notes for this one, our PM hates emoji in customer-facing copy']);
    expect(judge("The user's PM dislikes emoji in customer-facing text.", both, ['m1'])).toBeUndefined();
    expect(judge('Never use emoji in release notes.', both, ['m1'])).toBe('one-off made a rule');
    const lasting = convo(['user', 'no emoji in the release notes for this one, and from now on none in any changelog']);
    expect(judge('Never use emoji in release notes.', lasting, ['m1'])).toBeUndefined();
  });

  it('reads a Chinese rule said with "any", "ever" or "we do not"', () => {
    const memory = '该团队从不使用 MongoDB，所有服务都用 Postgres。';
    for (const said of ['跑下迁移。我们组不用mongo 都是pg', '改完跑测试，mongo从来没在我们这用过', '任何新服务都别上mongo'])
      expect(judge(memory, convo(['user', said]), ['m1'])).toBeUndefined();
    expect(judge('用户从不希望代码里有注释。', convo(['user', '这个文件先别写注释']), ['m1'])).toBe('one-off made a rule');
  });
});

describe('evidenceRejection: a value the user corrected later', () => {
  const port = convo(
    ['user', 'migrations fail on my local db, its on localhost 5433'],
    ['assistant', 'Connecting to 5433...'],
    ['user', 'sorry, 5434. 5433 is the old pg13 container i keep forgetting to kill'],
  );

  it('rejects the number the correction replaced, and keeps the corrected one', () => {
    expect(judge("The user's local database is on port 5433.", port, ['m1'])).toBe('corrected later: 5433');
    expect(judge("The user's local database is on port 5434.", port, ['m3'])).toBeUndefined();
  });

  it('counts a correction the memory cites as one of its sources', () => {
    expect(judge("The user's local database is on port 5433.", port, ['m1', 'm3'])).toBeUndefined();
  });

  it('reads a new number said of the same thing ("year 4" ... "year 3")', () => {
    const year = convo(
      ['user', 'letter for the parents of my year 4 class, 28 kids'],
      ['user', 'its year 3 actually, i moved down this september'],
    );
    expect(judge('The user teaches a Year 4 class of 28 children.', year, ['m1'])).toBe('corrected later: 4');
  });

  it('leaves a number alone that a correction of something else does not touch', () => {
    const sailing = convo(
      ['user', 'i never go out if gusts are forecast over 25. boats a 26 footer'],
      ['user', 'sorry 28 foot, i always say 26 for some reason'],
    );
    expect(judge('Graham never sails when gusts over 25 knots are forecast.', sailing, ['m1'])).toBeUndefined();
    expect(judge("Graham's boat is a 26-foot yacht.", sailing, ['m1'])).toBe('corrected later: 26');
  });

  it('reads a value taken back in words, in English and Spanish', () => {
    const day = convo(
      ['user', 'her endo appt is thursday the 14th at 10:30'],
      ['user', 'hang on, checked the letter, its tuesday the 12th not thursday.'],
    );
    expect(judge('The endocrinology appointment is on Thursday the 14th.', day, ['m1'])).toBe('corrected later: thu');
    const es = convo(['user', 'el dev corre en el 3002'], ['user', 'perdon, el puerto es 3001 no 3002']);
    expect(judge('El servidor de desarrollo corre en el puerto 3002.', es, ['m1'])).toBe('corrected later: 3002');
  });

  it('reads a value the correction calls old, wrong or gone', () => {
    const schema = convo(
      ['user', 'dev target, schema is dbt_pkumar'],
      ['user', 'sorry schema is dbt_psharma, pkumar is my old teammate lol'],
    );
    expect(judge("The user's dbt dev schema is dbt_pkumar.", schema, ['m1'])).toBe('corrected later: dbt_pkumar');
    const branch = convo(['user', 'PR contra develop porfa'], ['user', 'ay perdon, develop ya no existe, ahora es staging']);
    expect(judge('Los PR se abren contra la rama develop.', branch, ['m1'])).toBe('corrected later: develop');
  });

  it('judges only a value the memory took from its sources ("not thursdays" of the physio, not of training)', () => {
    const week = convo(['user', 'aoife has camogie tues and thurs 6-7'], ['user', 'sorry physio is wednesdays not thursdays']);
    expect(judge('Aoife has camogie training on Tuesdays and Thursdays, 6-7pm.', week, ['m1'])).toBeUndefined();
  });

  it('reads days of the week however they are written, and a slip put right with other days', () => {
    const shifts = convo(['user', 'gym is mon and thurs evenings'], ['user', 'oops my bad, gym is tue and fri not mon and thurs']);
    expect(judge('The user goes to the gym on Monday and Thursday evenings.', shifts, ['m1'])).toBe('corrected later: mon');
    const slip = convo(['user', 'bins go out weds and sat here'], ['user', 'sorry wrong, its tue and sun']);
    expect(judge('Bins go out on Wednesdays and Saturdays.', slip, ['m1'])).toBe('corrected later: wed');
    const zh = convo(['user', '游泳课是周二和周四'], ['user', '说错了，是周三和周五']);
    expect(judge('孩子的游泳课在周二和周四。', zh, ['m1'])).toBe('corrected later: tue');
    const other = convo(['user', 'bins go out weds and sat here'], ['user', 'sorry wrong, the recycling is tue']);
    expect(judge('Bins go out on Wednesdays and Saturdays.', other, ['m1'])).toBeUndefined();
  });

  it('reads a value put right without a "sorry", in Spanish too, and a value only the agent said', () => {
    const es = convo(['user', 'la boda es el sabado 20'], ['user', 'perdona, es el 21 no el 20, me he liado']);
    expect(judge('La boda es el sábado 20.', es, ['m1'])).toBe('corrected later: 20');
    const agent = convo(['assistant', 'You can trigger the nightly-build workflow now.'], ['user', 'its build-nightly not nightly-build']);
    expect(judge('The CI workflow is called nightly-build.', agent, ['m1'])).toBe('corrected later: nightly-build');
  });

  it('reads a taken-back number whole ("not 3.11" is no "3")', () => {
    const api = convo(['user', 'the api has 3 replicas and runs python 3.11'], ['user', 'sorry, the worker is on python 3.12 not 3.11']);
    expect(judge('The API runs 3 replicas.', api, ['m1'])).toBeUndefined();
  });

  it('reads no correction in how a thing is, nor in a word that is itself "old" (the real codex-teams and pi-theme transcripts)', () => {
    const stuck = convo(
      ['assistant', 'The sheet now loads its data through useTeamWithStats.'],
      ['user', 'ok it is still not working. no data is showing up'],
    );
    expect(judge('The team sheet loads its data through the useTeamWithStats hook.', stuck, ['m1'])).toBeUndefined();
    const theme = convo(
      ['assistant', 'The component captured the old theme when it was built.'],
      ['user', 'sorry, that seems to be the old dim color'],
    );
    expect(judge('A component that captured the old theme when it was built keeps its colours.', theme, ['m1'])).toBeUndefined();
  });

  it('reads a value the session itself changed later, as the agent reports it (the real pi-theme transcript)', () => {
    const changed = convo(
      ['assistant', 'The dark theme now sets `dimGray` to `#444444`.'],
      ['user', 'dim is too dark, i cant read it'],
      ['assistant', 'Changed `dimGray` from `#444444` to `#585858`.'],
    );
    expect(judge("The dark theme's dimGray is #444444.", changed, ['m1'])).toBe('corrected later: changed in the session: #444444');
    expect(judge("The dark theme's dimGray is #585858.", changed, ['m3'])).toBeUndefined();
    expect(judge('dimGray was changed from #444444 to #585858 for legibility.', changed, ['m1', 'm3'])).toBeUndefined();
    // A list of changes under a line that says so: "The conversions I made:".
    const listed = convo(
      ['user', 'the palette uses 256-colour indices: gray is 242, dimGray is 238'],
      ['assistant', 'The conversions I made:\n- `gray: 242` → `#6c6c6c`\n- `dimGray: 238` → `#444444`'],
    );
    expect(judge('In the palette dimGray is the 256-colour index 238.', listed, ['m1'])).toBe(
      'corrected later: changed in the session: 238',
    );
  });

  it('reads a flow drawn with an arrow, or a plain word, as no change (the real cc-windows and cc-navuser transcripts)', () => {
    const flow = convo(
      ['user', 'can you import the key from 1password'],
      ['assistant', 'Imported: 1Password → op CLI → gpg keyring. The commit is signed.'],
      ['assistant', 'Changed from `user?.name` to `user?.username`, the model has no name field.'],
    );
    expect(judge("The user's GPG key is kept in 1Password.", flow, ['m1'])).toBeUndefined();
    expect(judge("The user's login name in the app is jnarowski.", flow, ['m1'])).toBeUndefined();
  });

  it('needs a correction: a later message that merely differs is no evidence', () => {
    const later = convo(['user', 'staging db is on 5433'], ['user', 'the redis cache is on 6380 btw']);
    expect(judge('The staging database is on port 5433.', later, ['m1'])).toBeUndefined();
  });
});

describe('admit with evidence: a memory only the agent said', () => {
  const session = convo(
    ['user', 'the nightly export keeps timing out again, can you look? its the reports service'],
    [
      'assistant',
      'The export query scans the whole orders table: there is no index on created_at. Redis on the staging box only accepts ' +
        'connections from the VPN subnet, so I ran the check from the bastion. I added the index and the export is fast now. ' +
        'The reports service runs on Postgres 15.',
    ],
  );
  const withEvidence = (memory: string, cited: string[]) => admit({ text: memory, source: 'llm', evidence: { messages: session, cited } });
  const finding = 'The export query of the reports service scans the whole orders table.';

  it("rejects this task's finding when it cites only the agent", () => {
    expect(admit({ text: finding, source: 'llm' }).admitted).toBe(true);
    expect(withEvidence(finding, ['m2'])).toMatchObject({
      admitted: false,
      reason: 'ungrounded',
      detail: 'only the agent said it: no-content',
    });
  });

  it('keeps a limit the agent found, and a memory that cites the user', () => {
    expect(withEvidence('Redis on the staging box only accepts connections from the VPN subnet.', ['m2']).admitted).toBe(true);
    expect(withEvidence(finding, ['m1', 'm2']).admitted).toBe(true);
  });

  it('keeps a standing fact of the project that names one of its artifacts (a path, an identifier, a version)', () => {
    for (const memory of [
      'Report file names in the reports service come from a fileNameFor helper defined in naming.ts.',
      'Domain services in the reports service return typed `Result<Row, Error>` values.',
    ])
      expect(withEvidence(memory, ['m2']).admitted, memory).toBe(true);
  });

  it('keeps a fact of the setup in the subjectless extractor style ("Uses pnpm and turbo", the real codex-teams transcript)', () => {
    expect(withEvidence('Uses Postgres 15 and Redis for the reports service', ['m2']).admitted).toBe(true);
    expect(withEvidence('Uses a bastion host to reach staging', ['m2']).admitted).toBe(true);
    expect(withEvidence('Scans the whole orders table', ['m2']).admitted).toBe(false);
  });

  it('reads Spanish: a count is no lesson, a limit is', () => {
    const sesion = convo(
      ['user', 'revisá por qué falla la subida de fotos del cliente'],
      [
        'assistant',
        'El bucket de fotos del cliente tiene 3.400 archivos; el proveedor de pagos no acepta importes con más de dos decimales.',
      ],
    );
    const conEvidencia = (memory: string) => admit({ text: memory, source: 'llm', evidence: { messages: sesion, cited: ['m2'] } });
    expect(conEvidencia('El bucket de fotos del cliente tiene 3.400 archivos.').detail).toBe('only the agent said it: no-content');
    expect(conEvidencia('El proveedor de pagos no acepta importes con más de dos decimales.').admitted).toBe(true);
  });

  it('does not hold a memory citing a summary to the agent standard', () => {
    const summarised = [...session, { id: 'm3', role: 'summary', text: finding }];
    expect(admit({ text: finding, source: 'llm', evidence: { messages: summarised, cited: ['m2', 'm3'] } }).admitted).toBe(true);
  });
});
