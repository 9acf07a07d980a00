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
