import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { remoteConfigured } from './configured.js';
import { resolveRemote } from './settings.js';

describe('resolveRemote: one resolution for every host', () => {
  let home: string;
  const config = (value: unknown) => writeFile(join(home, 'config.json'), JSON.stringify(value));

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'strata-remote-settings-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('is local when no flag, STRATA_URL or remote.url names a service', async () => {
    expect(await resolveRemote({ home, env: {} })).toBeNull();
    expect(remoteConfigured({ home, env: {} })).toBe(false);
  });

  it('reads the token from remote.tokenEnv whether the URL came from the flag, STRATA_URL or the config', async () => {
    await config({ remote: { tokenEnv: 'TEAM_TOKEN' } });
    const env = { TEAM_TOKEN: 'strata_t' };
    expect(await resolveRemote({ home, url: 'http://127.0.0.1:1/', env })).toMatchObject({
      url: 'http://127.0.0.1:1',
      token: 'strata_t',
      tokenEnv: 'TEAM_TOKEN',
    });
    expect(await resolveRemote({ home, env: { ...env, STRATA_URL: 'http://127.0.0.1:2/api/v1' } })).toMatchObject({
      url: 'http://127.0.0.1:2',
      token: 'strata_t',
    });
    expect(remoteConfigured({ home, env: {} })).toBe(false);
    await config({ remote: { url: 'http://127.0.0.1:3', tokenEnv: 'TEAM_TOKEN' } });
    expect(remoteConfigured({ home, env: {} })).toBe(true);
    expect(await resolveRemote({ home, env })).toMatchObject({ url: 'http://127.0.0.1:3', token: 'strata_t' });
  });

  it('precedence: explicit URL > STRATA_URL > config; overrides (a host block) count as config', async () => {
    await config({ remote: { url: 'http://127.0.0.1:3' } });
    const env = { STRATA_URL: 'http://127.0.0.1:2', STRATA_TOKEN: 'x' };
    expect((await resolveRemote({ home, url: 'http://127.0.0.1:1', env }))?.url).toBe('http://127.0.0.1:1');
    expect((await resolveRemote({ home, env }))?.url).toBe('http://127.0.0.1:2');
    const viaOverrides = await resolveRemote({ home, env: { OC_TOKEN: 'y' }, overrides: { remote: { tokenEnv: 'OC_TOKEN' } } });
    expect(viaOverrides).toMatchObject({ url: 'http://127.0.0.1:3', token: 'y' });
  });

  it('refuses a tokenEnv that is unset while STRATA_TOKEN is set, instead of sending no token', async () => {
    await config({ remote: { tokenEnv: 'TEAM_TOKEN' } });
    await expect(resolveRemote({ home, env: { STRATA_URL: 'http://127.0.0.1:2', STRATA_TOKEN: 'x' } })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
    });
  });
});
