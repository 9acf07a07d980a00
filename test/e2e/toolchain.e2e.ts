import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ensureNode } from './support/toolchain.js';
import { NODE_22, NODE_24 } from './versions.js';

const run = promisify(execFile);

describe('e2e toolchain', () => {
  it.each([NODE_22, NODE_24])('installs and runs Node %s from the npm registry', async (version) => {
    const node = await ensureNode(version);
    const { stdout } = await run(node.node, ['--version']);
    expect(stdout.trim()).toBe(`v${version}`);
  });
});
