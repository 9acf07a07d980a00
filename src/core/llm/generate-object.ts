import { z } from 'zod';
import type { LlmMessage, LlmUsage, LlmV1 } from '../../spec/llm.js';
import type { LlmClient, LlmClientGenerateOptions } from './llm-client.js';
import { LlmOutputError } from './llm-output-error.js';
import { parseJsonLoose } from './json-text.js';

/**
 * Structured output from any LLM: the JSON schema goes to the endpoint when it can enforce one;
 * otherwise it is spelled out in the system prompt and the reply is parsed tolerantly. A reply
 * that still fails gets exactly one repair round (the bad output and the error go back to the
 * model) before `LlmOutputError`.
 */
export interface GenerateObjectOptions<T> {
  llm: LlmV1 | LlmClient;
  messages: LlmMessage[];
  schema: z.ZodType<T>;
  schemaName: string;
  maxTokens?: number;
  temperature?: number;
  abortSignal?: AbortSignal;
  /** Usage label when `llm` is an `LlmClient`. */
  purpose?: string;
}

export interface GenerateObjectResult<T> {
  object: T;
  /** The raw text the accepted object was parsed from. */
  text: string;
  /** Summed over the first call and the repair call. */
  usage: LlmUsage;
  repaired: boolean;
}

type Check<T> = { ok: true; value: T } | { ok: false; error: string };

function check<T>(schema: z.ZodType<T>, text: string): Check<T> {
  const parsed = parseJsonLoose(text);
  if (!parsed.ok) return parsed;
  const result = schema.safeParse(parsed.value);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, error: `The JSON does not match the schema: ${z.prettifyError(result.error)}` };
}

export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...jsonSchema } = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<string, unknown>;
  return jsonSchema;
}

function withInstructions(messages: LlmMessage[], schemaName: string, jsonSchema: Record<string, unknown>): LlmMessage[] {
  const instruction =
    `Reply with only a JSON value named "${schemaName}" that matches this JSON schema, with no prose and no code fences:\n` +
    JSON.stringify(jsonSchema);
  const firstSystem = messages.findIndex((m) => m.role === 'system');
  if (firstSystem < 0) return [{ role: 'system', content: instruction }, ...messages];
  return messages.map((m, i) => (i === firstSystem ? { role: 'system', content: `${m.content}\n\n${instruction}` } : m));
}

export async function generateObject<T>(options: GenerateObjectOptions<T>): Promise<GenerateObjectResult<T>> {
  const { llm } = options;
  const jsonSchema = jsonSchemaOf(options.schema);
  const enforced = llm.capabilities.supportsJsonSchema;
  const messages = enforced ? options.messages : withInstructions(options.messages, options.schemaName, jsonSchema);
  const call = async (callMessages: LlmMessage[], purposeSuffix: string) => {
    const request: LlmClientGenerateOptions = {
      messages: callMessages,
      responseFormat: { type: 'json', name: options.schemaName, ...(enforced ? { schema: jsonSchema } : {}) },
      maxTokens: options.maxTokens,
      temperature: options.temperature,
      abortSignal: options.abortSignal,
      purpose: `${options.purpose ?? options.schemaName}${purposeSuffix}`,
    };
    return llm.doGenerate(request);
  };

  const first = await call(messages, '');
  const firstCheck = check(options.schema, first.text);
  if (firstCheck.ok) return { object: firstCheck.value, text: first.text, usage: first.usage, repaired: false };

  const repairMessages: LlmMessage[] = [
    ...messages,
    { role: 'assistant', content: first.text },
    {
      role: 'user',
      content:
        `Your previous reply could not be used. ${firstCheck.error}\n` +
        `Reply again with only the corrected JSON for "${options.schemaName}", matching the schema exactly.`,
    },
  ];
  const second = await call(repairMessages, '.repair');
  const usage = {
    inputTokens: first.usage.inputTokens + second.usage.inputTokens,
    outputTokens: first.usage.outputTokens + second.usage.outputTokens,
  };
  const secondCheck = check(options.schema, second.text);
  if (secondCheck.ok) return { object: secondCheck.value, text: second.text, usage, repaired: true };
  throw new LlmOutputError({
    message:
      `${llm.provider}:${llm.modelId} did not return valid "${options.schemaName}" JSON after one repair attempt (${secondCheck.error}). ` +
      'Use a model that follows JSON instructions, or one whose endpoint supports JSON schema output.',
    text: second.text,
  });
}
