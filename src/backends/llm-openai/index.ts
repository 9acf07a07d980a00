export { createOpenAIChat, type OpenAIChatSettings } from './openai-chat.js';
