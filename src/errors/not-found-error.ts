import { StrataError } from './strata-error.js';

export class NotFoundError extends StrataError {
  constructor(options: { what: string; id: string }) {
    super({
      code: 'NOT_FOUND',
      message: `No ${options.what} with id ${options.id} (check the id with \`strata list\`).`,
      details: { id: options.id },
    });
    this.name = 'NotFoundError';
  }
}
