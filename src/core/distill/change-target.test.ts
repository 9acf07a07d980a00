import { describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../spec/memory-record.js';
import { isAdditive, isRetelling, replacedMemory, replacedNames } from './change-target.js';
import { statesUserChange } from './english-user.js';

const mem = (id: string, text: string): MemoryRecord => ({ id, text }) as MemoryRecord;
const target = (text: string, memories: MemoryRecord[]) => replacedMemory({ text, memories })?.id;

describe('replacedNames', () => {
  it('names what a change statement says was replaced', () => {
    expect(replacedNames('We ripped datadog out, logs go to loki now.')).toContain('datadog');
    expect(replacedNames("We're finally off heroku, both run on fly.io now.")).toContain('heroku');
    expect(replacedNames('We moved postgres from RDS to Neon.')).toContain('rds');
    expect(replacedNames("Chloe's off to uni so Jess is our sitter now.")).toContain('chloe');
    expect(replacedNames('We let the circleci contract lapse.')).toContain('circleci');
  });
});

describe('replacedMemory', () => {
  const others = [
    mem('train', 'The user is learning Spanish on Duolingo, 10 min a day on the train.'),
    mem('kids', 'The kids have school dinners every day.'),
    mem('trip', "We're going to the Algarve for the first two weeks of August."),
  ];

  it('replaces the memory that names what was dropped', () => {
    const logs = mem('logs', 'We send all our logs to Datadog.');
    expect(target('We ripped datadog out, logs go to loki now.', [...others, logs])).toBe('logs');
  });

  it('replaces the memory naming what a change only says was dropped ("no more sentry")', () => {
    const errors = mem('errors', 'Errors from the api go to Sentry, project is called api-prod.');
    expect(target('No more sentry, it got too pricey.', [...others, errors])).toBe('errors');
    const dog = mem('dog', "The user's dog Biscuit eats Purina Pro Plan dry food.");
    expect(target("Vet put Biscuit on a prescription kidney diet (hill's k/d), so no more purina for him.", [...others, dog])).toBe('dog');
    const glasses = mem('glasses', 'The user wears glasses, -3.5 in both eyes.');
    expect(replacedNames("We don't use jira anymore.")).toContain('jira');
    expect(target("Had laser eye surgery last month and they don't need glasses anymore!", [...others, glasses])).toBe('glasses');
    // The memory already says it was dropped: the same news again.
    const gone = mem('gone', 'No more Sentry for the api since March.');
    expect(target('No more sentry, it got too pricey.', [...others, gone])).toBeUndefined();
  });

  it('replaces the one memory about the same subject when the statement says it moved', () => {
    const standup = mem('standup', 'Daily standup is 9:30am.');
    expect(target('Standup moved to 10:15 so the parents can do school drop-off.', [...others, standup])).toBe('standup');
  });

  it('replaces the employer a statement says was left, not a memory sharing a passing word', () => {
    const phone = mem('phone', "The user's phone plan is EE, 10GB data.");
    const job = mem('job', 'The user is a junior analyst at Fenwick Insurance.');
    expect(target('The user left Fenwick, they are a data engineer at a startup called Lumora now.', [phone, job])).toBe('job');
    expect(target('Got promoted to senior analyst at fenwick.', [phone, job])).toBe('job');
  });

  it('reads "can be merged" and "before" as no change of subject', () => {
    const main = mem('main', 'Main is protected: needs passing CI before merge.');
    expect(target('In our main repo a PR needs one approval before it can be merged.', [main])).toBeUndefined();
  });

  it('never takes the noun of a set phrase ("a mano", "de baja", "by hand") for a subject', () => {
    const garden = mem('garden', 'El huerto lo riego a mano con la manguera todas las tardes cuando baja el sol.');
    expect(target('Los builds del juego los sacamos a mano desde la compu del Nacho.', [...others, garden])).toBeUndefined();
    expect(target('Ahora el server de pruebas corre en fly.io, lo de hetzner lo dimos de baja.', [...others, garden])).toBeUndefined();
    expect(replacedNames('dimos de baja heroku, ahora todo en render')).toContain('heroku');
    const hand = mem('hand', 'The user washes the dishes by hand every evening.');
    expect(target('We now deploy by hand from the release branch.', [...others, hand])).toBeUndefined();
  });

  it('does not take a word of the reason after a colon for the old value ("X instead of Y: it already speaks MQTT")', () => {
    const memories = [
      mem('topics', 'MQTT topics: `gh/<bed>/<sensor>`, one topic per sensor.'),
      mem('db', 'Sensor data lives in InfluxDB 2.7.'),
    ];
    expect(target('Telegraf instead of a custom bridge: it already speaks MQTT and Influx, one less thing to maintain.', memories)).toBe(
      undefined,
    );
  });

  it('replaces nothing when the shared word is in several memories', () => {
    const walk = mem('walk', 'The kids walk to school at 8.');
    expect(target("We've moved the kids to packed lunches.", [...others, walk])).toBeUndefined();
  });

  it('reads another form of a word as the same word', () => {
    // "bugs" and "bug", "invoices" and "invoicing", "biscuits" and "no more biscuit".
    const bugs = mem('bugs', 'Support files all the bugs customers report in Jira.');
    expect(target('Bug reports moved to Linear.', [...others, bugs])).toBe('bugs');
    const invoices = mem('invoices', 'Our invoices go out through FreshBooks.');
    expect(target('Invoicing moved to Xero.', [...others, invoices])).toBe('invoices');
    const treats = mem('treats', 'The dog gets two biscuits after every walk.');
    expect(replacedNames("No more biscuit for the dog, the vet says he's too heavy.")).toContain('biscuit');
    expect(target("No more biscuit for the dog, the vet says he's too heavy.", [...others, treats])).toBe('treats');
  });

  it('reads a dropped short name as the initials of the memory it names', () => {
    const cloud = mem('cloud', 'Our services run on Google Cloud Platform in europe-west1.');
    expect(target('Dropped GCP, everything is on Hetzner now.', [...others, cloud])).toBe('cloud');
    // Initials across a function word name nothing: "takes the train to town" spells no "TT".
    const town = mem('town', 'The user takes the train to town, about an hour.');
    expect(replacedNames('Dropped TT, everything is on Hetzner now.')).toContain('tt');
    expect(target('Dropped TT, everything is on Hetzner now.', [...others, town])).toBeUndefined();
  });

  it('reads "scratch X", "switching to", "hired … to do" and "since the start of" as changes', () => {
    const mail = mem('mail', 'Our mailing list lives in Mailchimp.');
    expect(replacedNames('We built the site from scratch.')).toEqual([]);
    expect(target("Scratch Mailchimp, the client has a Brevo account so we're switching to Brevo.", [...others, mail])).toBe('mail');
    const payroll = mem('payroll', 'Marek does the payroll for us every month.');
    expect(target("Marek went back to Poland so we've hired an agency to do the payroll.", [...others, payroll])).toBe('payroll');
    const eggs = mem('eggs', 'Eggs for the cafe come from Tesco on a weekly order.');
    expect(target('Since the start of the year our eggs come from Hill Farm.', [...others, eggs])).toBe('eggs');
  });

  it('reads "binned"/"ditching", "migrated X off", "stopped" before an activity and "X licence expired" as changes', () => {
    expect(replacedNames('we binned youtrack, tasks are in linear now')).toContain('youtrack');
    expect(replacedNames('We axed the friday demo.')).toContain('friday demo');
    expect(replacedNames('stopped swimming, my shoulder hates it')).toEqual(['swimming']);
    expect(replacedNames('the sketch licence expired.')).toContain('sketch');
    expect(replacedNames('the avocode sub lapsed')).toContain('avocode');
    expect(replacedNames("we're ditching circleci for buildkite")).toContain('circleci');
    expect(replacedNames('we migrated the billing service off heroku onto render')).toContain('heroku');
    // What stops working, and a gerund with its own object, are no dropped activity.
    expect(replacedNames('the printer stopped working.')).toEqual([]);
    expect(replacedNames('we stopped working with the Leeds agency')).toEqual([]);
    const swim = mem('swim', 'The user swims three mornings a week.');
    expect(target('stopped swimming, my shoulder hates it', [...others, swim])).toBe('swim');
  });

  it('reads "we\'re dropping X" and "X\'s off the table" as changes, and never "keeps dropping"', () => {
    expect(replacedNames("we're dropping okhttp, the new client is written in-house")).toContain('okhttp');
    expect(replacedNames('i am dropping the evening karaoke class')).toContain('evening karaoke class');
    expect(replacedNames("kendo's off the table until my wrist heals")).toEqual(['kendo']);
    expect(replacedNames('the hotel wifi keeps dropping')).toEqual([]);
    expect(replacedNames('calls are dropping in the basement')).toEqual([]);
    const http = mem('http', 'Every android app talks to the api through okhttp.');
    expect(target("we're dropping okhttp - plain fetch from here on", [...others, http])).toBe('http');
  });

  it('matches a name where a memory says what it is about before one naming it in passing', () => {
    const commute = mem('commute', 'The user takes the 7:52 train into the office, about 40 min.');
    expect(target('Commuting by e-bike these days instead of the train.', [...others, commute])).toBe('commute');
    // Named in passing by two memories and first by none: neither is the one replaced.
    const trips = mem('trips', 'Weekend trips are by car, rarely on the train.');
    expect(target('Commuting by e-bike these days instead of the train.', [...others, trips])).toBeUndefined();
  });

  it('matches a name in passing when one memory names it at all', () => {
    const flow = mem('flow', 'We do git flow: feature branches come off develop, releases are cut from it.');
    expect(target('We killed the develop branch.', [...others, flow])).toBe('flow');
  });

  it('matches a name anywhere in a memory that was itself a change', () => {
    const phone = mem('phone', 'Pixel 6 finally died, day to day android testing is on a pixel 7a now.');
    const text = "Most of the client's users are on samsung so they've made a galaxy s24 their test device instead of the 7a.";
    expect(target(text, [...others, phone])).toBe('phone');
  });

  it('never replaces on a statement that adds a second thing or says the same again', () => {
    const redis = mem('redis', 'We use Redis for caching.');
    expect(isAdditive('We also use Valkey for queues now.')).toBe(true);
    expect(target('We also use Valkey for queues now.', [redis])).toBeUndefined();
    expect(isAdditive('The thursday pitch got too expensive.')).toBe(false);
    const tabs = mem('tabs', 'The user prefers tabs over spaces in Python.');
    expect(target('The user prefers tabs instead of spaces in Python!', [tabs])).toBeUndefined();
  });

  it('leaves a look-alike without a change word alone', () => {
    const db = mem('db', 'Our main database is Postgres.');
    expect(target('Analytics events go into ClickHouse, separate from the main db.', [db])).toBeUndefined();
  });
});

describe('isRetelling', () => {
  const stored = mem('m', 'Db migrations are run with dbmate, files live in db/migrations.');
  it('is a paraphrase close in meaning with shared words', () => {
    expect(isRetelling("We use dbmate for migrations, they're in db/migrations.", { record: stored, similarity: 0.87 })).toBe(true);
  });
  it('is not a retelling when far in meaning, changed or found by text only', () => {
    expect(isRetelling("We use dbmate for migrations, they're in db/migrations.", { record: stored, similarity: 0.6 })).toBe(false);
    expect(isRetelling('We use sqitch for migrations now.', { record: stored, similarity: 0.85 })).toBe(false);
    expect(isRetelling("We use dbmate for migrations, they're in db/migrations.", { record: stored })).toBe(false);
    // Marked by the speaker as said before: looser closeness, one shared word, found by text too.
    const marked = { marked: true };
    expect(isRetelling("We use dbmate for migrations, they're in db/migrations.", { record: stored, similarity: 0.6 }, marked)).toBe(true);
    expect(isRetelling("We use dbmate for migrations, they're in db/migrations.", { record: stored }, marked)).toBe(true);
    expect(isRetelling('We use sqitch for migrations now.', { record: stored, similarity: 0.85 }, marked)).toBe(false);
  });
});

describe('statesUserChange: changes said the way people say them', () => {
  it.each([
    'fyi: pnpm now.',
    "we're finally off heroku, api and worker both run on fly.io now",
    'ripped jest out this week, everything runs on vitest now',
    'we killed the develop branch',
    'we changed on-call to 2-week shifts with handoff wednesday 11am',
    'swapped eslint and prettier for biome',
    'the 1password env vault is deleted',
    'pickup is 2:45 now',
  ])('%s', (text) => expect(statesUserChange(text)).toBe(true));

  it.each(['it works now', 'the tests pass now', 'wrote 2 tests, both green, pushing now', "i'm done now", 'i just fixed the header'])(
    'not: %s',
    (text) => expect(statesUserChange(text)).toBe(false),
  );
});

describe('Spanish changes', () => {
  const ci = mem('ci', 'Usamos Jenkins para el CI.');
  const repo = mem('repo', 'El repo está en GitLab.');
  const daily = mem('daily', 'La daily es a las 9:30.');
  const host = mem('host', 'La api está en Heroku.');

  it('names what was dropped, with or without accents', () => {
    expect(replacedNames('ya no usamos Jenkins, ahora todo corre en GitHub Actions')).toContain('jenkins');
    expect(replacedNames('nos pasamos de Heroku a Render')).toContain('heroku');
    expect(replacedNames('cambiamos Slack por Teams')).toContain('slack');
    expect(replacedNames('el excel quedó atrás, ahora es todo Notion')).toContain('excel');
  });

  it('replaces the memory it is about, and only that one', () => {
    expect(target('ya no usamos jenkins, ahora todo corre en github actions', [repo, daily, ci, host])).toBe('ci');
    expect(target('nos pasamos de Heroku a Render', [repo, daily, ci, host])).toBe('host');
    expect(target('la daily se movió a las 10', [repo, ci, host, daily])).toBe('daily');
    expect(target('también usamos GitHub Actions para los deploys', [repo, daily, ci, host])).toBeUndefined();
    expect(isAdditive('además tenemos otro repo para la app')).toBe(true);
  });

  it('names what was sold, thrown out, closed or is "fuera"', () => {
    const car = mem('car', 'Tengo un Corolla 2012 gris.');
    const db = mem('db', 'La base de datos del ERP es MySQL 5.7.');
    expect(target('vendí el corolla y me compré un eléctrico usado, un nissan leaf', [repo, db, car])).toBe('car');
    expect(target('ya terminamos la migración a postgres 16, mysql fuera', [repo, car, db])).toBe('db');
    expect(replacedNames('tiramos black, flake8 e isort, ahora ruff hace todo')).toContain('black');
  });

  it('reads a drop said with its subject, a switch-off and a change verb in any person', () => {
    const swim = mem('swim', 'Lía hace judo los jueves en el polideportivo.');
    const books = mem('books', 'Los libros de cuentas viven en un SQL Server local.');
    const flow = mem('flow', 'Seguimos gitflow: las ramas feature salen de develop.');
    // Nothing new beside the name dropped: still news, since the memory never said it was dropped.
    expect(target('lía dejó judo', [repo, swim, daily])).toBe('swim');
    expect(target('los libros de cuentas ya están en postgres, el sql server se apagó en marzo', [repo, daily, books])).toBe('books');
    expect(target('se acabó develop', [repo, daily, flow])).toBe('flow');
    expect(target('desinstalamos jenkins del servidor', [repo, daily, ci])).toBe('ci');
    const boss = mem('boss', 'Mi jefa directa es Nuria, la de finanzas.');
    expect(target('nuria ya no es mi jefa', [repo, daily, boss])).toBe('boss');
  });

  it('reads "otro" and "another" after a preposition as where or why, not a second thing', () => {
    const port = mem('port', 'La api de pedidos corre en el puerto 4000.');
    expect(target('cambié la api de pedidos al 4100 porque chocaba con otro proceso', [repo, daily, port])).toBe('port');
    const team = mem('team', 'Aisha is on the billing squad.');
    expect(target('Aisha moved to another squad in Lisbon.', [repo, team])).toBe('team');
    expect(isAdditive('tenemos otro repo para la app')).toBe(true);
    expect(isAdditive('We got another cat.')).toBe(true);
  });

  it('finds the memory by the old value named beside the change when the change itself names none', () => {
    const editor = mem('editor', 'Uso webstorm para todo, tanto el front como los scripts.');
    const api = mem('api', 'El backend local corre en el puerto 8080.');
    const worker = mem('worker', 'El backend de pagos tiene un worker de colas aparte.');
    expect(target('me he pasado a zed, webstorm me comía la batería', [repo, daily, editor])).toBe('editor');
    // Two memories share "backend"; only one names the old port.
    expect(target('moví el backend al 3001 xq el 8080 me chocaba con otro servicio', [worker, api, repo])).toBe('api');
  });
});

describe('what a change is about, offline', () => {
  it('never takes a month, a year, "one" or "called" for what a change is about', () => {
    const flock = mem('flock', 'We have about 200 ewes on the hill, they need extra meal the month before lambing.');
    const producer = mem('producer', 'Our producer is Jean, he wants a weekly progress email, help them draft one.');
    const game = mem('game', 'The game is called Lanterne, a 2D metroidvania.');
    expect(target('We moved bug tracking to linear last month.', [flock, producer])).toBeUndefined();
    expect(target('Switched to a new energy supplier this year.', [flock, producer])).toBeUndefined();
    expect(target("It's one patch a month from now on.", [flock, producer])).toBeUndefined();
    expect(target("The vet retired so we're with a young one called Dr Hegarty now.", [game, producer])).toBeUndefined();
    // A change verb both happen to use is no shared subject.
    const back = mem('back', 'The user has a bad back since they slipped a disc lifting a ewe.');
    expect(target('EA slipped to may, the bosses want more polish.', [back])).toBeUndefined();
    // "New York" is a name, not news.
    const home = mem('home', 'The user works from home full time.');
    expect(target('The user subscribes to the New York Times digital.', [home])).toBeUndefined();
  });

  it('does not read something misbehaving now as a change', () => {
    const daughter = mem('daughter', 'Mi hija Marta vive en Londres desde hace ocho años.');
    expect(
      target('Tengo un iphone 11 que me regaló mi hija hace años, y ahora no me deja actualizar el whatsapp.', [daughter]),
    ).toBeUndefined();
    expect(target("The old laptop my brother gave me, now it won't boot.", [mem('bro', 'My brother lives in Cork.')])).toBeUndefined();
    // A change with "ahora" still finds its memory.
    const gym = mem('gym', 'Voy al gym los lunes a las 7.');
    expect(target('cambié el gym a la noche, ahora voy a las 20h', [daughter, gym])).toBe('gym');
  });

  it('reads "ported", "is history", "put up to" and a dropped name with an underscore as changes, and never "getting" as a subject', () => {
    const editor = mem('editor', 'Our level editor tool is written in WPF and it is getting slow with big maps.');
    const meal = mem('meal', 'Meal and fertiliser come from the Kerry Agribusiness store in Farranfore.');
    const rogue = mem('rogue', "The user's side project is a little roguelike in godot 3.5.");
    const loc = mem('loc', 'Loc is handled with a giant google sheet that we export to csv.');
    const style = mem('style', 'Our C# convention is m_ prefix for private fields and s_ for statics.');
    const double = mem('double', 'We charge €90 a night for a double with the full irish included.');
    expect(target('Getting the meal from a lad in Listowel now, way cheaper than the store.', [editor, meal])).toBe('meal');
    expect(target('Ported the roguelike to godot 4.2 this weekend.', [editor, rogue])).toBe('rogue');
    expect(target('The studio started using crowdin for all translations so the google sheet is history.', [editor, loc])).toBe('loc');
    expect(target('New style guide: we dropped the m_ prefix, private fields are just _camelCase now.', [editor, style])).toBe('style');
    expect(target('Put the double up to €100 a night, nobody complained.', [editor, double])).toBe('double');
  });

  it('reads Spanish changes told with the object first, "me he dado de baja de", "me movieron" and "ha pasado los"', () => {
    const daughter = mem('daughter', 'Mi hija Marta vive en Londres.');
    const redCross = mem('redCross', 'Hago voluntariado en cruz roja los viernes por la mañana.');
    const insurance = mem('insurance', 'Tengo seguro privado con sanitas, además de la seguridad social.');
    const onCall = mem('onCall', 'Me toca guardia los martes, así que ese día ando con el pagerduty.');
    const choir = mem('choir', 'Los ensayos del coro son los miércoles a las siete de la tarde.');
    const thyroid = mem('thyroid', 'Tomo eutirox de 50 en ayunas, media hora antes del desayuno.');
    expect(target('Lo de cruz roja lo he dejado, ahora ayudo en el banco de alimentos los sábados.', [daughter, redCross])).toBe(
      'redCross',
    );
    expect(target('Me he dado de baja de sanitas y he cogido adeslas.', [daughter, insurance])).toBe('insurance');
    expect(target('Me movieron la guardia a los jueves desde este mes.', [daughter, onCall])).toBe('onCall');
    expect(target('El coro ha pasado los ensayos al jueves a las seis.', [daughter, choir])).toBe('choir');
    expect(target('El endocrino me ha subido el eutirox a 75, que la TSH salió alta.', [daughter, thyroid])).toBe('thyroid');
  });

  it('takes the whole name dropped before its verb, ends what "también" drops, and never matches on a number word', () => {
    const diet = mem('diet', 'Yo carne roja no como, solo pescado y pollo.');
    const redCross = mem('redCross', 'Hago voluntariado en cruz roja los viernes.');
    expect(target('Lo de cruz roja lo he dejado, ahora ayudo en el banco de alimentos.', [redCross, diet])).toBe('redCross');
    const streaming = mem('streaming', 'Hemos quitado netflix y ahora tenemos filmin, que tiene más cine europeo.');
    expect(target('Filmin lo he cancelado también, ahora solo veo la tele a la carta.', [diet, streaming])).toBe('streaming');
    const sugar = mem('sugar', 'Me mido el azúcar con un glucómetro, pinchándome el dedo dos veces al día.');
    expect(target('Me han operado de cataratas de los dos ojos y ya no necesito gafas de lejos.', [sugar])).toBeUndefined();
  });

  it('reads "largó", "decidimos dejar", "se fue a" and an English plural in Spanish text', () => {
    const daughter = mem('daughter', 'Mi hija Marta vive en Londres.');
    const basket = mem('basket', 'Nacho juega al básquet en el club, entrena martes y jueves.');
    const state = mem('state', 'En la app manejamos todo el estado con provider.');
    const mocks = mem('mocks', 'El mock server lo levanto en el puerto 3000 con json-server.');
    const budget = mem('budget', 'El presupuesto que tengo para la obra es de 3 millones de pesos.');
    expect(target('Nacho largó el básquet, dice que se aburrió.', [daughter, basket])).toBe('basket');
    expect(target('Al final decidimos dejar provider y migrar todo a riverpod 2.', [daughter, state])).toBe('state');
    expect(target('Moví los mocks a prism y ahora corren en el 4010.', [daughter, mocks])).toBe('mocks');
    expect(target('El presupuesto ya se fue a 5 millones con los aumentos.', [daughter, budget])).toBe('budget');
  });
});
