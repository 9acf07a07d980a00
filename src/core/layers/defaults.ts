// Kept apart from organiser.ts so the config schema can read them without loading the organiser.
/** The organiser's limits when neither options nor config (`layers.*`) say otherwise. */
export const ORGANIZE_DEFAULTS = {
  maxScenes: 15,
  maxMemoriesPerRun: 50,
  maxTurns: 24,
  timeoutMs: 300_000,
  backupKeep: 5,
  personaEveryN: 50,
  personaBackupKeep: 3,
  personaCoreMemories: 30,
  lockTimeoutMs: 600_000,
  /** Runs per call when another process commits the agent's layers first. */
  maxAttempts: 3,
} as const;

/** When the background worker organises on its own (config `layers.organizer`). */
export const AUTO_ORGANIZE_DEFAULTS = {
  auto: true,
  /** New memories since the organiser's checkpoint that make a run due. */
  everyMemories: 20,
  /** Least time between two automatic runs of one agent (the reference system's L2 minimum: 15 min). */
  minIntervalMs: 900_000,
} as const;
