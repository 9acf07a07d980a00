import { StrataError } from './strata-error.js';

/**
 * A layer store commit found the agent's files at another version than the one the writer read:
 * another process (or machine) committed in between. Retryable: read the newer version and redo.
 */
export class LayerConflictError extends StrataError {
  constructor(options: { agentId: string; expectedVersion: number; actualVersion: number }) {
    super({
      code: 'VERSION_CONFLICT',
      isRetryable: true,
      message: `The scenes and persona of agent ${options.agentId} moved to version ${options.actualVersion} while this run worked on version ${options.expectedVersion} (another process organised the agent); nothing was written: read the newer version and redo the run.`,
      details: { ...options },
    });
    this.name = 'LayerConflictError';
  }

  static is(error: unknown): error is LayerConflictError {
    return StrataError.isInstance(error) && error.code === 'VERSION_CONFLICT';
  }
}
