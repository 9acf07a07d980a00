/**
 * A caller-scoped view of the engine (`strata.as(caller)`): validates an operation's input against
 * the limits of this engine's config, checks access, runs it within the caller's scopes and returns
 * plain data. Hosts hold one view per caller and never talk to the engine around it.
 */
import { z } from 'zod';
import { assertScopeSet, isValidScope } from '../scope.js';
import { InvalidArgumentError } from '../../errors/index.js';
import { requestedScopes, type Caller } from '../caller.js';
import { invalidInput } from './errors.js';
import { limitsOf, type OpLimits, type OpsConfig } from './limits.js';
import type { InputContext } from './inputs.js';
import type { OpContext, Operation, OpsDeps } from './operation.js';
import { OPERATIONS, type OpName, type OpResult } from './table.js';

export interface RunOptions {
  abortSignal?: AbortSignal;
}

function operation(name: OpName): Operation {
  return OPERATIONS[name] as unknown as Operation;
}

/** An operation's input as a JSON schema (draft 7), for hosts that describe tools to a model. */
export function operationJsonSchema(name: OpName, ctx: InputContext): Record<string, unknown> {
  const schema = operation(name).input(ctx);
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
}

/** What a host needs of the operations: the local view below, or a remote service's (src/remote/client.ts). */
export interface OperationsRunner {
  readonly caller: Caller;
  /** Input limits (page sizes, batch sizes) of the engine behind it. */
  readonly limits: OpLimits;
  run<N extends OpName>(name: N, input?: unknown, options?: RunOptions): Promise<OpResult<N>>;
  /** The input as a JSON schema (draft 7), for hosts that describe tools to a model. */
  jsonSchema(name: OpName): Record<string, unknown>;
  /** The result in the compact shape model-facing hosts return. */
  forModel<N extends OpName>(name: N, result: OpResult<N>): unknown;
  /** The result as text for a model. */
  text<N extends OpName>(name: N, result: OpResult<N>): string;
}

/** The compact shape of a result for a model (the operation's own, else the result as is). */
export function resultForModel<N extends OpName>(name: N, result: OpResult<N>): unknown {
  const op = operation(name);
  return op.forModel ? op.forModel(result) : result;
}

/** A result as text for a model: the operation's wording, else compact JSON. */
export function resultText<N extends OpName>(name: N, result: OpResult<N>): string {
  const op = operation(name);
  if (op.text) return op.text(result);
  const view = resultForModel(name, result);
  return typeof view === 'string' ? view : JSON.stringify(view, null, 1);
}

/**
 * What every host holds: a caller-scoped view of the operations. `CallerOperations` runs them on an
 * engine in this process; the resident client (src/resident/operations.ts) runs them in the
 * home's resident process. Both validate input, check access and shape results the same way.
 */
export interface OperationsView extends OperationsRunner {
  readonly actor: string;
  schema(name: OpName): z.ZodType;
  parse(name: OpName, input: unknown): unknown;
}

/** Validation, access checks and result shapes of the operations for one caller: no engine needed. */
export abstract class OperationShapes implements OperationsView {
  readonly caller: Caller;
  readonly limits: OpLimits;
  readonly actor: string;
  private readonly schemas = new Map<OpName, z.ZodType>();

  constructor(options: { config: OpsConfig; caller: Caller; actor: string }) {
    this.caller = options.caller;
    this.actor = options.actor;
    this.limits = limitsOf(options.config);
  }

  abstract run<N extends OpName>(name: N, input?: unknown, options?: RunOptions): Promise<OpResult<N>>;

  /** The operation's zod input schema for this engine and caller (limits from config). */
  schema(name: OpName): z.ZodType {
    let schema = this.schemas.get(name);
    if (!schema) {
      schema = operation(name).input({ limits: this.limits, caller: this.caller });
      this.schemas.set(name, schema);
    }
    return schema;
  }

  /** The input as a JSON schema (draft 7), for hosts that describe tools to a model. */
  jsonSchema(name: OpName): Record<string, unknown> {
    return operationJsonSchema(name, { limits: this.limits, caller: this.caller });
  }

  /** Validates an input; a bad one becomes an InvalidArgumentError naming every bad field. */
  parse(name: OpName, input: unknown): unknown {
    const result = this.schema(name).safeParse(input ?? {});
    if (!result.success) throw invalidInput(result.error, name);
    return result.data;
  }

  /** Refuses an owner-only operation to a caller without owner mode. */
  protected assertAccess(name: OpName): void {
    if (operation(name).access === 'owner' && !this.caller.owner) {
      throw new InvalidArgumentError({
        argument: 'caller',
        code: 'FORBIDDEN_SCOPE',
        message: `${name} needs owner mode (--all-scopes); this caller reads ${this.caller.scopes.join(', ')} only.`,
      });
    }
  }

  /** The result in the compact shape model-facing hosts return. */
  forModel<N extends OpName>(name: N, result: OpResult<N>): unknown {
    return resultForModel(name, result);
  }

  /** The result as text for a model: the operation's wording, else compact JSON. */
  text<N extends OpName>(name: N, result: OpResult<N>): string {
    return resultText(name, result);
  }
}

export class CallerOperations extends OperationShapes {
  private readonly deps: OpsDeps;

  constructor(deps: OpsDeps) {
    super({ config: deps.engine.config, caller: deps.caller, actor: deps.actor });
    this.deps = deps;
  }

  override async run<N extends OpName>(name: N, input: unknown = {}, options: RunOptions = {}): Promise<OpResult<N>> {
    const args = this.parse(name, input);
    this.assertAccess(name);
    return (await operation(name).run(this.context(options), args)) as OpResult<N>;
  }

  private context(options: RunOptions): OpContext {
    return { ...this.deps, limits: this.limits, abortSignal: options.abortSignal, readScopes: (requested) => this.readScopes(requested) };
  }

  private async readScopes(requested?: string | readonly string[]): Promise<string[]> {
    const narrowed = requestedScopes(this.caller, requested);
    if (narrowed) return narrowed;
    if (!this.caller.owner) return this.caller.scopes;
    // Owner mode reads every scope there is; only the store knows which those are.
    const all = Object.keys((await this.deps.engine.stats()).byScope).filter(isValidScope);
    return assertScopeSet([...this.caller.scopes, ...all]);
  }
}

export function createCallerOperations(deps: OpsDeps): CallerOperations {
  return new CallerOperations(deps);
}
