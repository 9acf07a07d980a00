import { describe, expect, it } from 'vitest';
import * as errors from './index.js';

// Every exported error class must carry the brand, so identity checks survive duplicate copies
// of the package (where `instanceof` fails).
describe('exported errors', () => {
  const classes = Object.entries(errors).filter(([, v]) => typeof v === 'function' && v.prototype instanceof Error) as Array<
    [string, new (o: never) => Error]
  >;

  it('are all branded and carry a code', () => {
    expect(classes.length).toBeGreaterThanOrEqual(6);
    const samples: Record<string, unknown> = {
      StrataError: { code: 'STORAGE', message: 'm' },
      InvalidArgumentError: { argument: 'a', message: 'm' },
      ConfigError: { message: 'm' },
      StorageError: { message: 'm' },
      NotFoundError: { what: 'memory', id: 'x' },
      ProviderCallError: { message: 'm', url: 'http://x' },
      RetryError: { message: 'm', errors: [new Error('e')] },
      LayerConflictError: { agentId: 'main', expectedVersion: 1, actualVersion: 2 },
    };
    for (const [name, Cls] of classes) {
      expect(samples[name], `add a sample for ${name}`).toBeDefined();
      const instance = new Cls(samples[name] as never);
      expect(errors.StrataError.isInstance(instance), name).toBe(true);
      expect(typeof (instance as errors.StrataError).code).toBe('string');
    }
    expect(errors.StrataError.isInstance(new Error('plain'))).toBe(false);
  });

  it('decides retryability from the status code where the error is raised', () => {
    const status = (statusCode: number) => new errors.ProviderCallError({ message: 'm', url: 'u', statusCode }).isRetryable;
    expect([408, 409, 429, 500, 503].map(status)).toEqual([true, true, true, true, true]);
    expect([400, 401, 403, 404].map(status)).toEqual([false, false, false, false]);
  });
});
