import { describe, expect, it } from 'vitest';
import { admit } from './admission.js';
import { unstatedDetail } from './unstated-details.js';

describe('a detail the conversation never states', () => {
  it.each([
    ['The staging database listens on port 5434.', ['fyi staging db is on 5433, prod on 5432'], '5434'],
    ['The billing service is pinned to Go 1.21.', ['billing is stuck on go 1.20 until the vendor sdk updates'], '1.21'],
    ['Build artefacts are kept for 45 days.', ['we keep build artefacts for 30 days, then they are purged'], '45'],
    ['用户的支付服务运行在端口8081上。', ['支付服务跑在8080端口，别改'], '8081'],
    ['The CI image ships Node.js v18.', ['the ci image is on node 20 since the upgrade'], '18'],
  ])('finds the made-up number in %j', (memory, conversation, detail) => {
    expect(unstatedDetail(memory, conversation)).toBe(detail);
  });

  it.each([
    ['The staging database listens on port 5433.', ['fyi staging db is on 5433, prod on 5432']],
    ['The user walks the dog for 30 minutes every morning.', ['i walk the dog for half an hour every morning']],
    ['The bakery closes at 14:00 on Saturdays.', ['the bakery shuts at 2 on saturdays']],
    ['The platform team has 12 engineers.', ['we are twelve engineers on platform']],
    ['La tienda abre de 17:00 a 20:00.', ['la tienda abre de 5 a 8 de la tarde']],
    ['The app runs on Django 4.2.', ['we are on django 4.2.7 for now']],
    ['The monthly cloud budget is 10,000 dollars.', ['cloud budget is 10k a month']],
    ['The user has 3 kids.', ['my kids ana, leo and sam all go to the same school']],
    ['Since March 12, 2025 the user works remotely.', ['i have been remote since last wednesday']],
    ['The user runs Node v22 locally.', ['node 22 on my laptop']],
    ['El bucket tiene 3.400 archivos.', ['el bucket tiene 3400 archivos']],
    ['The bucket holds 3400 files.', ['el bucket tiene 3.400 archivos']],
  ])('lets %j pass: the number is stated, reworded or not a copied detail', (memory, conversation) => {
    expect(unstatedDetail(memory, conversation)).toBeUndefined();
  });

  it('refuses such a memory in the gate when its conversation is given', () => {
    const messages = [
      { id: 'u1', role: 'user', text: 'the nas backup runs every night at 3am, keeps 14 snapshots' },
      { id: 'a1', role: 'assistant', text: 'Got it, nightly at 3am with 14 snapshots kept.' },
    ];
    const wrong = admit({ text: 'The NAS backup keeps 21 snapshots.', source: 'llm', evidence: { messages, cited: ['u1'] } });
    expect(wrong).toMatchObject({ admitted: false, reason: 'ungrounded' });
    expect(wrong.detail).toContain('never states: 21');
    expect(admit({ text: 'The NAS backup keeps 14 snapshots.', source: 'llm', evidence: { messages, cited: ['u1'] } }).admitted).toBe(true);
  });
});
