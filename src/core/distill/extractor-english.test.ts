import { describe, expect, it } from 'vitest';
import { admit } from './admission.js';

/**
 * Extractor output in the shapes extractor-english.ts reads (subjectless, named subjects, plans,
 * reported questions, this task's things), through the whole gate: each junk sentence must be
 * rejected for the reason given, and the standing facts beside them must pass.
 */
const junk: Array<[string, string]> = [
  ['context-dependent', 'From now on, the user wants this PR to target release/3.1.'],
  ['context-dependent', 'The user always wants the timeout in this function set to 30 seconds.'],
  ['context-dependent', "Dana wants tomorrow's standup notes in bullet points."],
  ['context-dependent', 'The user preferred option C over option A for the logo.'],
  ['context-dependent', 'The user went with the cheaper of the two laptops discussed above.'],
  ['question', 'Asked how long to rest between interval sets.'],
  ['question', 'Tomasz asked whether the lens is worth upgrading.'],
  ['chatter', 'Dana said thanks and signed off.'],
  ['status-noise', '7 specs fail after the upgrade to Rails 7.2.'],
  ['session-event', 'The search returned no files matching *.proto in the repo.'],
  ['passing-state', 'Tomorrow the user will replace the fan in the NAS.'],
  ['passing-state', 'The plumber comes on Thursday.'],
  ['passing-state', 'Plans to submit the grant application next week.'],
  ['passing-state', 'Her knee has been sore this week.'],
  ['task-request', 'Dana wants an email to the landlord about the broken boiler.'],
  ['session-event', 'Flashed the bootloader onto the test board.'],
  ['session-event', 'Sent the updated invoice to the client.'],
  ['session-event', 'Migration 0042_add_orders_index was run on staging.'],
  ['restated-instruction', 'The assistant must use the provided tools and never fabricate file contents.'],
  ['task-request', 'Leila asked for a packing list for the Lisbon trip.'],
  ['task-request', 'Omar asked the assistant to convert the recipe to metric.'],
  ['session-event', 'Ported invoice-list.tsx to the new design tokens.'],
  ['passing-state', 'Wants temporary debug logging in the payment webhook.'],
  ['passing-state', "The user's next task is the checkout page redesign."],
  ['passing-state', 'Needs a type error fix in order_service.py.'],
  ['status-noise', 'The API package has 212 tests, all passing.'],
  ['passing-state', 'The laptop runs Node 22.11.0, the latest LTS release.'],
  ['task-request', 'Kenji wants help preparing questions for the meeting with the landlord.'],
  ['session-event', 'Assistant suggested stretching every two hours on long drives.'],
  ['chatter', 'Leila was annoyed that the first hotel suggestion was fully booked.'],
  ['passing-state', 'Omar has 40 minutes left on his parking ticket.'],
  ['passing-state', 'The baby woke up four times last night.'],
  ['passing-state', 'Leila should call the dentist on Monday to move the appointment.'],
  ['passing-state', 'Omar has a job interview next Tuesday.'],
  ['session-event', 'Bumped the package version to 2.4.1.'],
  ['status-noise', "npm ci failed with 'EINTEGRITY sha512 mismatch'."],
  ['task-request', 'Call the dentist on Monday at 9 am to move the cleaning.'],
  ['task-request', 'Remind Ana on 1 March to renew the parking permit.'],
  ['status-noise', 'A reminder was set for Tuesday at 8pm to pack the lunches.'],
  ['status-noise', 'CI build #2231 failed because the lockfile was stale.'],
  ['passing-state', 'Will ask the pharmacist about the new dosage.'],
  ['passing-state', 'Kofi needs to renew his passport before the trip.'],
  ['passing-state', 'The user may add a Makefile target for this later.'],
  ['passing-state', 'Dana is painting the fence this weekend.'],
  ['passing-state', 'Moving flats in Leith next week.'],
  ['passing-state', 'Priya is on parental leave until the 14th.'],
  ['task-request', 'Wants the budget as a printable table.'],
  ['task-request', 'Sam wants a reminder on Friday to water the plants.'],
  ['session-event', 'Lena fixed the flaky login test on her branch.'],
  ['session-event', 'Renewed the car insurance online.'],
  ['passing-state', "Mei's landlord raised the rent by 5 % this month."],
  ['passing-state', 'The team recently hit a rate limit on the geocoding API.'],
  ['passing-state', 'The user had a dentist check-up a few weeks ago and needs a filling.'],
  ['passing-state', 'Priya will repaint the spare room before her parents arrive.'],
  ['passing-state', "The user's team is going to move the cron jobs to Airflow."],
  // Stop 45 (admission-real-notes.jsonl): tallies of a run, a machine's readings, a thing broken now, the next step.
  ['status-noise', 'ESLint reports 14 errors in the payments package.'],
  ['status-noise', 'The billing module has 3 mypy errors.'],
  ['status-noise', 'Semgrep findings down from 240 to 31'],
  ['passing-state', 'The build box has 120 GB of free disk space.'],
  ['passing-state', 'The invoices service fails to build.'],
  ['passing-state', 'Next: wire the retry queue into the uploader'],
  ['restated-instruction', 'Pick up the previous task without asking the user further questions'],
  ['no-content', 'Needs the slides by Friday'],
  // Stop 46: a past act with a participle and no auxiliary stays the agent's report.
  ['session-event', 'Invoice template saved to the shared drive'],
];

const kept = [
  'Lives in Porto.',
  'Is vegetarian.',
  'Allergic to shellfish.',
  'Dislikes long meetings before noon.',
  'The studio files its taxes quarterly.',
  'Commit messages follow the Angular convention.',
  'Moved to Berlin in 2021 after five years in Madrid.',
  'Opened the bakery in 2016 after ten years as a pastry chef.',
  'Turned out the memory leak came from a listener added on every render.',
  'Slow exports turned out to come from an unindexed join; the team now adds an index for every foreign key.',
  'The user goes swimming on Tuesdays and Thursdays.',
  'The user prefers replies in Portuguese.',
  "The project's system prompt tells the agent to read CONTRIBUTING.md before editing docs.",
  'Formats Python code with ruff.',
  'Weighs 72 kg.',
  "Wife's name is Amara.",
  'Uses slog for structured logging in Go services.',
  'Generated client code lives in gen/ and must never be edited by hand.',
  'Application logs are being shipped to Loki by the node agents.',
  'The user asks for short answers in every reply.',
  'Email invoices to the accountant before the 5th of every month.',
  'Merge PRs only after CI is green, never with a failing check.',
  'Can only go on holiday during school holidays.',
  'Is training for the Berlin marathon with a running club.',
  'Wants invoices as PDF attachments, never as links.',
  'The user switched to a standing desk last month and prefers it.',
  'The team will never deploy on Fridays.',
  'Joined the platform team two months ago and owns the deploy pipeline.',
  'Temporary files of the exporter go in /var/tmp/exporter, never in the repo.',
  'Stores contracts in Dropbox',
  'Self-hosts Nextcloud',
  'Before a PR is opened, the user wants lint, tests and type checks all green.',
  'The user always runs the latest Node LTS release on the build server.',
  'CI fails the build when ESLint reports more than 0 warnings.',
  'The app fails to start without REDIS_URL set.',
  'Dark theme tool backgrounds: pending #282832, success #283228, error #3c2828.',
  // A verb no list holds, read by the tagger ("Tracks issues with Beads" in admission-real-notes.jsonl).
  'Shops at Lidl',
  'Bakes sourdough every weekend',
  // A note that drops "is" before where a thing is kept tells no event (stop 46).
  'Restic repository password stored in Bitwarden',
  'infra/terraform.tfvars gitignored, copied from terraform.tfvars.example',
  'Invoice templates kept on the shared drive',
  'Family photos backed up to the Synology NAS every night',
];

describe('extractor output in English', () => {
  it.each(junk)('rejects as %s: %s', (reason, text) => {
    expect(admit({ text, source: 'llm' })).toMatchObject({ admitted: false, reason });
  });
  it.each(kept)('keeps: %s', (text) => {
    expect(admit({ text, source: 'llm' })).toEqual({ admitted: true });
  });
  it('reads these shapes in extractor output only: a user saying "Sent the invoice" is judged as a user', () => {
    expect(admit({ text: 'Sent the updated invoice to the client.', source: 'llm' }).reason).toBe('session-event');
    expect(admit({ text: 'Sent the updated invoice to the client.', source: 'user' }).reason).not.toBe('session-event');
  });
});
