/**
 * Tokens in `<home>/tokens.json` (mode 0600) for a service on LanceDB: one machine, so the home is
 * where every serve process on it finds them. Read on every check, so a revocation made by
 * `strata tokens revoke` applies to a running server at once.
 */
import { chmod, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StorageError } from '../errors/index.js';
import { withFileLock } from '../util/file-lock.js';
import type { TokenRecord, TokenRegistry } from './tokens.js';

interface TokenFile {
  version: 1;
  tokens: TokenRecord[];
}

export class FileTokenRegistry implements TokenRegistry {
  readonly location: string;
  private readonly lockPath: string;

  constructor(options: { home: string }) {
    this.location = join(options.home, 'tokens.json');
    this.lockPath = join(options.home, 'locks', 'tokens.lock');
  }

  private async read(): Promise<TokenRecord[]> {
    const text = await readFile(this.location, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw new StorageError({ message: `Cannot read ${this.location}: ${error.message}`, cause: error });
    });
    if (text === null) return [];
    try {
      const parsed = JSON.parse(text) as TokenFile;
      return Array.isArray(parsed.tokens) ? parsed.tokens : [];
    } catch (error) {
      throw new StorageError({
        message: `${this.location} is not valid JSON; fix or remove it (tokens must then be re-issued).`,
        cause: error,
      });
    }
  }

  private async update(fn: (tokens: TokenRecord[]) => TokenRecord[]): Promise<void> {
    await withFileLock({ path: this.lockPath }, async () => {
      const next: TokenFile = { version: 1, tokens: fn(await this.read()) };
      const tmp = `${this.location}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(next, null, 2) + '\n', { mode: 0o600 });
      await chmod(tmp, 0o600);
      await rename(tmp, this.location);
    });
  }

  async add(record: TokenRecord): Promise<void> {
    await this.update((tokens) => [...tokens, record]);
  }

  async find(id: string): Promise<TokenRecord | null> {
    return (await this.read()).find((t) => t.id === id) ?? null;
  }

  async list(): Promise<TokenRecord[]> {
    return this.read();
  }

  async revoke(id: string, at: string): Promise<boolean> {
    let found = false;
    await this.update((tokens) =>
      tokens.map((t) => {
        if (t.id !== id) return t;
        found = true;
        return t.revokedAt ? t : { ...t, revokedAt: at };
      }),
    );
    return found;
  }

  async hasActive(): Promise<boolean> {
    return (await this.read()).some((t) => !t.revokedAt);
  }

  async close(): Promise<void> {}
}
