export { createAnthropic, type AnthropicSettings } from './anthropic-messages.js';
