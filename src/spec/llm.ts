/**
 * LLM specification, version 1: one non-streaming chat call with optional tools and structured
 * output. Adapters translate to one wire API and never retry; the core (`src/core/llm`) adds
 * retries, concurrency limits, usage accounting and JSON repair on top.
 */
export interface LlmCapabilities {
  /** The endpoint enforces a JSON schema on the output (OpenAI `json_schema`, tool-forced output, ...). */
  supportsJsonSchema: boolean;
  /** The endpoint accepts tool definitions and returns tool calls. */
  supportsTools: boolean;
  /** Context window in tokens, when known. */
  maxContextTokens?: number;
}

export interface LlmToolCall {
  /** Provider-assigned id, echoed back in the matching `tool` message. */
  id: string;
  name: string;
  /** Parsed arguments object (adapters parse provider JSON strings). */
  arguments: Record<string, unknown>;
}

export type LlmMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: LlmToolCall[] }
  | { role: 'tool'; toolCallId: string; toolName?: string; content: string; isError?: boolean };

export interface LlmToolDefinition {
  name: string;
  description: string;
  /** JSON schema (type: object) of the arguments. */
  parameters: Record<string, unknown>;
}

export interface LlmResponseFormat {
  type: 'json';
  /** JSON schema of the expected output; adapters that cannot enforce it still ask for JSON. */
  schema?: Record<string, unknown>;
  name?: string;
}

export type LlmFinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
  /** USD the provider itself reported for the call (the Claude Code CLI does), preferred to configured prices. */
  costUsd?: number;
}

export interface LlmGenerateOptions {
  messages: LlmMessage[];
  tools?: LlmToolDefinition[];
  responseFormat?: LlmResponseFormat;
  maxTokens?: number;
  temperature?: number;
  abortSignal?: AbortSignal;
}

export interface LlmGenerateResult {
  text: string;
  toolCalls: LlmToolCall[];
  finishReason: LlmFinishReason;
  usage: LlmUsage;
}

export interface LlmV1 {
  readonly specificationVersion: 'v1';
  /** e.g. `openai`, `anthropic`, `ollama` (the host part of an OpenAI-compatible base URL otherwise). */
  readonly provider: string;
  readonly modelId: string;
  readonly capabilities: LlmCapabilities;
  /** USD per million tokens, when the adapter was configured with prices. */
  readonly pricing?: LlmPricing;

  doGenerate(options: LlmGenerateOptions): Promise<LlmGenerateResult>;
}

export interface LlmPricing {
  inputPerMillion: number;
  outputPerMillion: number;
}
