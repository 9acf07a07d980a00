/**
 * Issue 16 item 1: a TypeScript strict consumer (TS 6 defaults: no `types` listed) compiles against
 * what `npm pack` ships. The package's own dependencies come from this repo's node_modules, the
 * package itself from the tarball, so the test sees exactly the published files.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/run-cli.js';

const CONSUMER = `
import { Strata, resolveCaller, type LearnResult } from 'strata-memory';
const strata = await Strata.open({ home: '/tmp/strata-consumer' });
const { results } = await strata.recall({ query: 'units', scopes: ['global'] });
const ops = strata.as(resolveCaller({ config: strata.config, agentId: 'helper' }));
const stored = await ops.run('remember', { text: 'Prefers metric units' });
const learned: LearnResult = await strata.learn({ messages: [{ role: 'user', content: 'Remember that I deploy on Tuesdays.' }] });
console.log(results.length, stored.id, learned.distill.admitted);
await strata.close();
`;

describe('package types (issue 16, item 1)', () => {
  it('a strict TypeScript consumer without "types": ["node"] compiles against the packed package', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'strata-consumer-'));
    execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: REPO_ROOT });
    const out = execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: REPO_ROOT, encoding: 'utf8' })
      .trim()
      .split('\n')
      .at(-1)!;
    const modules = join(dir, 'node_modules');
    await mkdir(join(modules, 'strata-memory'), { recursive: true });
    execFileSync('tar', ['-xzf', join(dir, out), '-C', join(modules, 'strata-memory'), '--strip-components=1']);
    // The package's dependencies (and @types/node among them), as an install would put them beside it.
    for (const name of await readdir(join(REPO_ROOT, 'node_modules'))) {
      if (name === '.bin' || name.startsWith('.') || name === 'strata-memory') continue;
      await symlink(join(REPO_ROOT, 'node_modules', name), join(modules, name));
    }
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noUncheckedIndexedAccess: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          noEmit: true,
        },
      }),
    );
    await writeFile(join(dir, 'index.ts'), CONSUMER);
    let output = '';
    try {
      execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
        cwd: dir,
        encoding: 'utf8',
      });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');
  }, 240_000);
});
