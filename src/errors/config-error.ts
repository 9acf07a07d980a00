import { StrataError } from './strata-error.js';

/** Configuration that cannot be read or does not validate; names the file and the field. */
export class ConfigError extends StrataError {
  readonly file: string | undefined;
  readonly field: string | undefined;
  constructor(options: { message: string; file?: string; field?: string; cause?: unknown; unreadable?: boolean }) {
    super({
      code: options.unreadable ? 'CONFIG_UNREADABLE' : 'CONFIG_INVALID',
      message: options.message,
      cause: options.cause,
      details: { file: options.file, field: options.field },
    });
    this.name = 'ConfigError';
    this.file = options.file;
    this.field = options.field;
  }
}
