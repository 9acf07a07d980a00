/** Child process for the kill -9 test: one distill run against the scripted server. */
import { runDistill } from '../../src/core/distill/index.js';
import { ctxOf, llmClient, openStrata } from './helpers.js';

const [home, baseURL] = process.argv.slice(2);
if (!home || !baseURL) throw new Error('usage: distill-child.ts <home> <baseURL>');
const strata = await openStrata(home);
const report = await runDistill({ ctx: ctxOf(strata), home, llm: llmClient(baseURL), lockStaleMs: 2000 });
await strata.close();
process.stdout.write(JSON.stringify(report) + '\n');
process.exit(0);
