/** The engine's commands, mountable under any commander root (`strata`, `openclaw strata`). */
import type { Command } from 'commander';
import { registerAdminCommands } from './admin.js';
import { registerCaptureCommands } from './capture.js';
import { registerDistillCommands } from './distill.js';
import { registerHistoryCommands } from './history.js';
import { registerMemoryCommands } from './memories.js';
import { registerRecallCommand } from './recall.js';
import { registerTransferCommands } from './transfer.js';
import { registerTokenCommands } from './tokens.js';

export { addGlobalOptions, callerOf, collect, globals, openStrata, withOps, withStrata, type GlobalOptions } from './context.js';

/** Memories, recall, export/import, admin, capture, distillation and history commands. */
export function registerEngineCommands(program: Command): void {
  registerMemoryCommands(program);
  registerRecallCommand(program);
  registerTransferCommands(program);
  registerAdminCommands(program);
  registerCaptureCommands(program);
  registerDistillCommands(program);
  registerHistoryCommands(program);
  registerTokenCommands(program);
}
