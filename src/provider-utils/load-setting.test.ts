import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/index.js';
import { loadApiKey, loadOptionalSetting, validateBaseURL, withoutTrailingSlash } from './load-setting.js';

describe('loadApiKey', () => {
  it('prefers the parameter, then the environment', () => {
    expect(loadApiKey({ apiKey: 'p', envVar: 'K', description: 'X', env: { K: 'e' } })).toBe('p');
    expect(loadApiKey({ envVar: 'K', description: 'X', env: { K: ' e ' } })).toBe('e');
  });

  it('fails naming both the setting and the variable', () => {
    const error = (() => {
      try {
        return loadApiKey({ envVar: 'JINA_API_KEY', description: 'Jina reranker', env: { JINA_API_KEY: '' } });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/JINA_API_KEY/);
    expect((error as Error).message).toMatch(/'apiKey'/);
  });
});

describe('settings helpers', () => {
  it('loadOptionalSetting: parameter, then env, else undefined', () => {
    expect(loadOptionalSetting({ settingValue: 'a', envVar: 'B', env: { B: 'b' } })).toBe('a');
    expect(loadOptionalSetting({ envVar: 'B', env: { B: 'b' } })).toBe('b');
    expect(loadOptionalSetting({ envVar: 'B', env: {} })).toBeUndefined();
  });

  it('withoutTrailingSlash and validateBaseURL', () => {
    expect(withoutTrailingSlash('http://h/v1//')).toBe('http://h/v1');
    expect(validateBaseURL({ url: 'https://api.x.com/v1/', description: 'X' })).toBe('https://api.x.com/v1');
    expect(() => validateBaseURL({ url: 'api.x.com', description: 'X' })).toThrow(ConfigError);
    expect(() => validateBaseURL({ url: 'ftp://x', description: 'X' })).toThrow(/http or https/);
  });
});
