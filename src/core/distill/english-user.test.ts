import { describe, expect, it } from 'vitest';
import { admit } from './admission.js';
import { englishUserVeto, foldInformal } from './english-user.js';
import { normalizeStatement } from './normalize-statement.js';
import { captureByRules } from './rules.js';

const learn = (text: string) => captureByRules({ text, role: 'user' }).map((c) => `${c.category}: ${c.text}`);

describe('English user messages as people type them', () => {
  it('reads contractions typed without apostrophes, and leaves real words alone', () => {
    expect(foldInformal('im sure u dont want that, its not ur fault')).toBe("i'm sure you don't want that, it's not your fault");
    expect(foldInformal('we were here, ill go, the id is 3')).toBe('we were here, ill go, the id is 3');
    expect(learn('dont ever push to main')).toEqual(['rule: Never push to main.']);
  });

  it('learns habits, identity, people, consequences, changes, lessons and decisions told without a marker word', () => {
    for (const text of [
      'i swim tue thu mornings before work',
      'im a night-shift nurse',
      'husband is dev, he works nights mon-wed',
      'the nas backup runs at 3am and locks the db, so timeouts around then are expected',
      'we ripped jenkins out last year, everything is on buildkite now',
      'learnt the hard way that the staging bucket is not versioned',
      'me and sam agreed: no eating out on weekdays',
      'any migration you write needs a down step',
      'prod box is a hetzner ax41 running debian',
      'tabs not spaces in go files, prettier config is wrong about it, not a fan of it either',
    ])
      expect(learn(text), text).toHaveLength(1);
  });

  it('learns a change told with a contraction, a contrast, "i now", a name who left, or a rule word of its own', () => {
    for (const text of [
      "we've scrapped daily standup altogether, it's async updates in slack by 10am now",
      "agency-wide we've swapped to firebase crashlytics, the sentry bill got silly.",
      "we've given up on in-store, doing an ocado delivery now",
      'my doctor changed the plan, it is DASH diet for my BP now, not low carb',
      'sundays are too rowdy with the kids, I now read early morning right after my shift ends',
      "five a side's tuesdays now, the pitch booking changed",
      "Priya's left for Monzo so Dan reviews the payments PRs now, tag him instead",
      'ripped redux out of the booking app over the weekend, it is all zustand now',
      "I'm up to 35k a week now, training for the manchester half",
      'play store deadline forced us up to targetSdk 34',
      'we finally installed solar and inverter, no more gen noise!',
      "we're dropping alamofire - plain URLSession with async/await from here on.",
      "we're strictly typescript in the RN apps, no plain .js files allowed",
      'all deps through swift package manager please, we dont do pods',
      'reminder any new file has to be .ts or .tsx',
      'we ship to the app store every two weeks, thursday releases',
    ])
      expect(learn(text), text).toHaveLength(1);
    // How the moment is going stays out: something up or back, "it's" and "no more questions".
    for (const text of ["docker's up now, try again", "it's on 4010 now", 'no more questions, thanks', 'i now see the error'])
      expect(learn(text), text).toEqual([]);
  });

  it('learns a schedule on a day spelt out in full or counted per week or month, and not a request made on it', () => {
    // "every wednesday" went unread while "every monday" was: the day pattern only added "day" to "wed", "thu", "sat".
    for (const text of ['bin men come every wednesday', 'my nan phones once a fortnight', 'the lads play poker one friday a month'])
      expect(learn(text), text).toHaveLength(1);
    for (const text of ['book me squash every thursday', 'can you remind me every saturday']) expect(learn(text), text).toEqual([]);
  });

  it('reads a short English sentence with "me" as English ("dont give me npm commands")', () => {
    expect(learn('monorepo uses yarn 1 classic, dont give me npm commands')).toHaveLength(1);
  });

  it('turns the pronoun into the third person however it is typed, and leaves "i.e." alone', () => {
    expect(learn('the account I am logged in with is called ops-admin')).toEqual([
      'fact: The account they are logged in with is called ops-admin.',
    ]);
    expect(learn("im a nurse, so don't assume i'm free on weekdays, i.e. check with me")).toEqual([
      "fact: The user is a nurse, so don't assume they are free on weekdays, i.e. check with them.",
    ]);
    // "my" inside a name stays; "wants me back" is the user too.
    expect(normalizeStatement('I use oh-my-zsh with the my-app theme', { thirdPerson: true })).toBe(
      'The user uses oh-my-zsh with the my-app theme.',
    );
    expect(normalizeStatement('dr alvarez, my dentist, wants me back in 6 months', { thirdPerson: true })).toBe(
      'Dr alvarez, their dentist, wants them back in 6 months.',
    );
  });

  it('keeps questions, hypotheticals, quoted opinions, sarcasm, pointers and moments out, however durable they sound', () => {
    const cases: Array<[string, string]> = [
      ["we don't deploy on fridays right? or was that the old team's rule", 'question'],
      ['hypothetically if we dropped node 18 what would break', 'question'],
      ['jake keeps saying we should never use ORMs', 'context-dependent'],
      ['oh sure, ALWAYS reach for jquery, brilliant idea 🙄', 'chatter'],
      ['yes always do it that way', 'context-dependent'],
      ['the api always returns 502 after a deploy rn', 'passing-state'],
      ['always run the seeds before the migrations this time', 'passing-state'],
      ['you literally never get this regex right', 'chatter'],
      ['from now on im waking up at 5am (who am i kidding)', 'chatter'],
      ['i always forget, whats the port-forward syntax', 'question'],
      ['i always mix it up', 'context-dependent'],
      ['no not that, the one above', 'context-dependent'],
      ["or was that the old team's rule", 'context-dependent'],
      ['im stuck in traffic on the m25, tell sam im 15 min late', 'passing-state'],
      ['the hotel wifi keeps dropping every 10 min, always on the hour', 'passing-state'],
    ];
    for (const [text, reason] of cases) {
      expect(englishUserVeto(text)?.reason, text).toBe(reason);
      expect(admit({ text, source: 'user' }).admitted, text).toBe(false);
      expect(learn(text), text).toEqual([]);
    }
  });

  it('lets a standing change through the moment words it carries', () => {
    expect(englishUserVeto('team call today: feature flags live in unleash going forward')).toBeUndefined();
    expect(englishUserVeto('lodash is banned in the frontend as of this week')).toBeUndefined();
    expect(admit({ text: "we're fully on github actions now, the Jenkinsfile is a fossil", source: 'user' }).admitted).toBe(true);
  });

  it('tells where someone is for the moment from where they are now for good', () => {
    for (const text of ["i'm in a meeting now", "I'm on the train now", "i'm at work now, ping me later", "we're on the phone now"]) {
      expect(learn(text), text).toEqual([]);
    }
    expect(learn("we're in the new office now")).toEqual(["preference: We're in the new office now."]);
    expect(learn("we're with octopus energy now")).toEqual(["preference: We're with octopus energy now."]);
  });
});

describe('English changes and standing facts as a farmer, a B&B owner and a game developer type them', () => {
  it('learns a change told with a price, "not ... anymore", "so now", "since the reorg", a slipped date or a person who took over', () => {
    const cases: Array<[string, string]> = [
      ['rooms are €85 a night now, everything went up', 'Rooms are €85 a night now, everything went up.'],
      ["we're not with bord gais anymore, the bill was a joke", "We're not with bord gais anymore, the bill was a joke."],
      ["the save files were huge on switch so now they're protobuf", "The save files were huge on switch so now they're protobuf."],
      ['since the reorg the art team reports to Camille', 'Since the reorg the art team reports to Camille.'],
      ['launch slipped to june, the publisher wants a demo first', 'Launch slipped to june, the publisher wants a demo first.'],
      ['put the single room up to €70 a night', 'Put the single room up to €70 a night.'],
      ['getting the hay from a farmer in Tralee now, half the price', 'Getting the hay from a farmer in Tralee now, half the price.'],
      ["my brother's home from canada for good", "The user's brother's home from canada for good."],
      ['Máire retired, her son Pádraig is doing the books now', 'Máire retired, her son Pádraig is doing the books now.'],
      [
        "Tom's gone to Dublin, Aisling from the village does the school run on fridays now",
        "Tom's gone to Dublin, Aisling from the village does the school run on fridays now.",
      ],
    ];
    for (const [text, memory] of cases) expect(learn(text), text).toEqual([`preference: ${memory}`]);
  });

  it('learns what a business supplies, charges, supports and targets, who it deals with, and health and roles said plainly', () => {
    const cases: Array<[string, string]> = [
      ["we're still on the old render pipeline, not URP", "rule: We're still on the old render pipeline, not URP."],
      ["we're with AIB for the farm and the house", "fact: We're with AIB for the farm and the house."],
      ["we're in the organic scheme since 2021", "fact: We're in the organic scheme since 2021."],
      ['we supply the lambs to the co-op in Listowel', 'fact: We supply the lambs to the co-op in Listowel.'],
      ['we charge €15 for a packed lunch', 'fact: We charge €15 for a packed lunch.'],
      ['we support android 9 and up', 'fact: We support android 9 and up.'],
      ["we're targeting september for the console release", "fact: We're targeting september for the console release."],
      ['the lambs and the calves come from the mart in Kenmare', 'fact: The lambs and the calves come from the mart in Kenmare.'],
      ['Nora drives a ford focus', 'fact: Nora drives a ford focus.'],
      ['Declan in Tralee does all our payroll', 'fact: Declan in Tralee does all our payroll.'],
      ['the mobile build targets 30fps', 'fact: The mobile build targets 30fps.'],
      ["i've a dodgy knee since the football", 'fact: The user has a dodgy knee since the football.'],
      ['he has type 2 diabetes', 'fact: He has type 2 diabetes.'],
      ['im the one who handles all the build scripts', 'fact: The user is the one who handles all the build scripts.'],
      // The request typed without "?" is cut off the statement.
      [
        'we feed at 7 in the morning and 6 in the evening, can you make me a rota',
        'fact: We feed at 7 in the morning and 6 in the evening.',
      ],
    ];
    for (const [text, memory] of cases) expect(learn(text), text).toEqual([memory]);
  });

  it('cuts what goes wrong now and a question typed without "?" off a standing fact, and reads upkeep, policies and amounts a day', () => {
    const cases: Array<[string, string]> = [
      [
        'I use rider for the unity project and the debugger keeps disconnecting on big scenes',
        'preference: The user uses rider for the unity project.',
      ],
      [
        'the van gets serviced by a garage in Killarney, should i get the tyres done too',
        'fact: The van gets serviced by a garage in Killarney.',
      ],
      ['the sheep get dosed for fluke in october. what product is good', 'fact: The sheep get dosed for fluke in october.'],
      ['i drink three coffees a day, is that too much', 'fact: The user drinks three coffees a day.'],
      ['guests can order breakfast until 10 in the morning', 'rule: Guests can order breakfast until 10 in the morning.'],
      ['the B&B wifi password is on the fridge', 'fact: The B&B wifi password is on the fridge.'],
      ['all our orders come through shopify', 'fact: All our orders come through shopify.'],
      [
        'ok scratch unreal, the publisher wants unity so we are switching to unity',
        'preference: Scratch unreal, the publisher wants unity so we are switching to unity.',
      ],
      ['got solar panels put in on the shed roof', 'preference: Got solar panels put in on the shed roof.'],
      ['with the new feeder we feed at 6 in the mornings now', 'preference: With the new feeder we feed at 6 in the mornings now.'],
    ];
    for (const [text, memory] of cases) expect(learn(text), text).toEqual([memory]);
  });

  it('learns a value "still" holds, a pinned version, where builds deploy from and are tested, and facts after a long subject', () => {
    const cases: Array<[string, string]> = [
      ['the staging db host is still db-stg-2.internal if you need it', 'fact: The staging db host is still db-stg-2.internal.'],
      ['my lunch break is still 12 to 1', "fact: The user's lunch break is still 12 to 1."],
      [
        'the legacy admin app is stuck on 4.2, nobody wants to touch it',
        'fact: The legacy admin app is stuck on 4.2, nobody wants to touch it.',
      ],
      ['the marketing site deploys straight from main', 'fact: The marketing site deploys straight from main.'],
      ['for release builds we test on a galaxy a14', 'fact: For release builds we test on a galaxy a14.'],
      ["i've got an arsenal season ticket", 'fact: The user has got an arsenal season ticket.'],
      ['in the backend services all logging is pino', 'fact: In the backend services all logging is pino.'],
      [
        'the android package name for the booking app is com.acme.booking',
        'fact: The android package name for the booking app is com.acme.booking.',
      ],
      [
        'my sister has gone back to Cork, we got a childminder for the mornings now',
        "preference: The user's sister has gone back to Cork, we got a childminder for the mornings now.",
      ],
      ['broadband is sky 100mb, if that matters for the router', 'fact: Broadband is sky 100mb.'],
      ['we cache sessions in redis via ioredis', 'fact: We cache sessions in redis via ioredis.'],
    ];
    for (const [text, memory] of cases) expect(learn(text), text).toEqual([memory]);
    expect(learn('the build is still failing')).toEqual([]);
  });

  it('reads any present-tense verb with "now" at the end as a change, but not what a task does now', () => {
    const cases: Array<[string, string]> = [
      ['the kids walk to school on their own now', 'preference: The kids walk to school on their own now.'],
      ['prod runs on kubernetes now', 'preference: Prod runs on kubernetes now.'],
      ["there's a second on-call person now", "preference: There's a second on-call person now."],
      ['her school starts at 8:30 now', 'preference: Her school starts at 8:30 now.'],
    ];
    for (const [text, memory] of cases) expect(learn(text), text).toEqual([memory]);
    for (const text of [
      'i get it now',
      'we have a problem now',
      'the kids love it now',
      'he knows about it now',
      'we merged the fix so prod runs fine now',
      'i see the error now',
      'Chrome quit unexpectedly again',
    ])
      expect(learn(text), text).toEqual([]);
  });

  it('keeps a task going, a diagnosis and a question typed without "?" out', () => {
    for (const text of [
      "so now it's broken again",
      "now it won't start",
      'the error comes from the physics update',
      'Docker is running now',
      "we're targeting the wrong branch",
      'the guests love the brown bread, what should i charge for a loaf',
    ])
      expect(learn(text), text).toEqual([]);
  });
});

describe("a noun's 's that is 'is'", () => {
  it('is read as "is" before a place, an article or an adverb, and stays a possessive before a noun', () => {
    expect(captureByRules({ text: "the api's on localhost:8080, the frontend proxies to it" }).map((c) => c.text)).toEqual([
      'The api is on localhost:8080, the frontend proxies to it.',
    ]);
    expect(foldInformal("my mum's in leeds")).toBe('my mum is in leeds');
    expect(foldInformal("the user's profile page is slow")).toBe("the user's profile page is slow");
    expect(foldInformal("it's on port 3000")).toBe("it's on port 3000");
    // After a preposition it is whose place.
    expect(foldInformal("christmas is always at my mum's in belfast")).toBe("christmas is always at my mum's in belfast");
  });
});

describe('English requests for every case, standing situations and choices among what was offered', () => {
  it('learns requests that hold for every case they name and standing situations; not a choice among what was offered', () => {
    for (const text of [
      'window seat on anything longer than an hour pls',
      'docstrings on every exported function pls, internal ones can skip them',
      'the publisher wants oxford commas in all chapter titles',
      'dont touch anything under /vendor, another team owns it',
      'migrations are append only, no exceptions',
      'no crypto or forex tips ever, im paying off a loan',
      'call me bea pls, nobody calls me beatriz',
      'were a 4 person studio, no QA at all, so tests are the only safety net',
      "we're saving for a campervan, target 15k by next summer",
      "i'm self employed, a sole trader, vat registered since may",
    ])
      expect(learn(text), text).toHaveLength(1);
    for (const text of [
      'i prefer the draft u wrote first',
      'lets go with the green one',
      'we decided to go with option c',
      'lets reuse the approach from before',
      'that quote is for the whole team not per seat',
      'from now on lets focus on the invoice export bug',
      'the vpn is down again, great',
      'my train got cancelled again, typical',
      'someone on hacker news said deno is faster than bun',
      'ok so the deposit is 400 right',
      'if i won the lottery id retire and never open jira again',
      'popping out now, back in 20 mins',
      'just this once send it from my personal address',
      'whyyy is gradle like this',
      'call me back when the build is done',
    ])
      expect(learn(text), text).toEqual([]);
    // Said once, for good: "this once" only ties a request to now.
    expect(learn('gonna say this once: fixtures live next to the test as foo.fixture.ts')).toHaveLength(1);
  });
});

describe('English decisions settled by a group or told without a subject, and standing "not ... anymore"', () => {
  it('learns them as decisions; a choice among what was offered and a question stay out', () => {
    for (const text of [
      'design team decided figma variables for all new tokens',
      'decided to cancel the crunchyroll sub, two streaming services is plenty',
      'ok, decided: the monorepo tooling stays on nx',
    ])
      expect(learn(text), text).toEqual([expect.stringMatching(/^decision: /)]);
    // A change told as what the speaker no longer does, however many words lie between.
    expect(learn("we're not supporting python 3.8 anymore, no compat shims")).toEqual([
      "preference: We're not supporting python 3.8 anymore, no compat shims.",
    ]);
    for (const text of ['we decided to go with option d', 'have we decided on the venue?', 'decided yet?'])
      expect(learn(text), text).toEqual([]);
  });
});
