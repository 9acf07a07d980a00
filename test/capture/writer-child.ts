/**
 * Child process that appends pi lines to a session file the way pi does (appendFileSync), but
 * sometimes in two halves so readers see partial last lines.
 */
import { appendFileSync } from 'node:fs';
import { piMessage } from './helpers.js';

const [path, fromArg, countArg] = process.argv.slice(2);
if (!path) throw new Error('usage: writer-child <path> <from> <count>');
const from = Number(fromArg);
const count = Number(countArg);
for (let i = from; i < from + count; i += 1) {
  const line = `${piMessage(i, i % 2 === 0 ? 'user' : 'assistant', `concurrent message ${i}`)}\n`;
  if (i % 7 === 0) {
    const cut = Math.floor(line.length / 2);
    appendFileSync(path, line.slice(0, cut));
    await new Promise((r) => setTimeout(r, 1));
    appendFileSync(path, line.slice(cut));
  } else {
    appendFileSync(path, line);
  }
  if (i % 50 === 0) await new Promise((r) => setTimeout(r, 2));
}
process.stdout.write('done\n');
