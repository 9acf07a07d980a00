export {
  loadConfig,
  resolveHome,
  writeDefaultConfig,
  configPathFor,
  CONFIG_FILE_NAME,
  type LoadedConfig,
  type LoadConfigOptions,
  type ResolvedStrataConfig,
  type StrataConfigOverrides,
} from './load.js';
export {
  strataConfigSchema,
  DEFAULT_CONFIG_FILE,
  llmProviderOf,
  type StrataConfig,
  type StrataConfigInput,
  type LayersConfig,
  type SummariesConfig,
  type JournalConfig,
} from './schema.js';
