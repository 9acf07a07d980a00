import { InvalidArgumentError } from '../../errors/index.js';

const ENV_REF = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))$/;
const MAX_DIMENSIONS = 65_536;

function toDimensions(raw: string, source: string): number {
  const text = raw.trim();
  if (!/^\d+$/.test(text)) {
    throw new InvalidArgumentError({
      argument: 'dimensions',
      message: `dimensions ${source} is ${JSON.stringify(raw)}, not a positive whole number; use e.g. 1536.`,
    });
  }
  return checkRange(Number(text), source);
}

function checkRange(value: number, source: string): number {
  if (!Number.isInteger(value) || value < 1 || value > MAX_DIMENSIONS) {
    throw new InvalidArgumentError({
      argument: 'dimensions',
      message: `dimensions ${source} is ${value}; it must be a whole number between 1 and ${MAX_DIMENSIONS} (e.g. 1536 for text-embedding-3-small).`,
    });
  }
  return value;
}

/**
 * Reads the configured vector length: a number, a numeric string ("1024"), or an environment
 * reference (`$EMBED_DIM`, `${EMBED_DIM}`, `${EMBED_DIM:-1024}`). Config files often carry these
 * as strings, so each form is accepted; anything else fails with the value shown.
 */
export function parseDimensions(value: number | string | undefined, env: NodeJS.ProcessEnv = process.env): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return checkRange(value, 'setting');
  const ref = ENV_REF.exec(value.trim());
  if (!ref) return toDimensions(value, 'setting');
  const name = (ref[1] ?? ref[3]) as string;
  const fromEnv = env[name];
  if (fromEnv === undefined || fromEnv.trim() === '') {
    if (ref[2] !== undefined) return toDimensions(ref[2], `default in ${value}`);
    throw new InvalidArgumentError({
      argument: 'dimensions',
      message: `dimensions refers to the environment variable ${name}, which is not set; set ${name} (e.g. ${name}=1536) or write the number directly.`,
    });
  }
  return toDimensions(fromEnv, `from ${name}`);
}
