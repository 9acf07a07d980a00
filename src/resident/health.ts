/**
 * `strata doctor`'s view of the hooks: failures logged in the last day (hook-log.ts) and the
 * resident process that answers them.
 */
import { callResident, readResidentInfo } from './client.js';
import { describeHookError, hookLogPath, recentHookErrors } from './hook-log.js';

export interface HealthCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export async function residentHealth(options: { home: string; now?: Date }): Promise<HealthCheck[]> {
  const now = options.now ?? new Date();
  const errors = await recentHookErrors({ home: options.home, since: new Date(now.getTime() - 86_400_000).toISOString() });
  const hooks: HealthCheck =
    errors.length === 0
      ? { name: 'claude-code hooks', ok: true, detail: 'no failures in the last 24 h' }
      : {
          name: 'claude-code hooks',
          ok: false,
          detail: `${errors.length} failure(s) in the last 24 h; latest: ${describeHookError(errors.at(-1)!)}; see ${hookLogPath(options.home)}`,
        };
  const info = await readResidentInfo(options.home);
  let resident: HealthCheck = { name: 'resident', ok: true, detail: 'not running (the first hook starts it)' };
  if (info) {
    try {
      const { result } = await callResident({ home: options.home, stamp: info.stamp, op: 'status', deadline: Date.now() + 2_000 });
      const s = result as { pid: number; uptimeMs: number; rssBytes: number; requests: number; served?: Record<string, number> };
      // ops.run: operations of the MCP server and the CLI; the rest are the hooks' own.
      const ops = s.served?.['ops.run'];
      resident = {
        name: 'resident',
        ok: true,
        detail: `pid ${s.pid}, up ${Math.round(s.uptimeMs / 1000)} s, ${s.requests} request(s)${ops ? ` (${ops} from MCP and CLI)` : ''}, ${Math.round(s.rssBytes / 1e6)} MB RSS`,
      };
    } catch (error) {
      resident = { name: 'resident', ok: true, detail: `not answering (${(error as Error).message}); the next hook starts a new one` };
    }
  }
  return [hooks, resident];
}
