/**
 * The plugin against a `strata serve` service (remote mode): no local store is opened and no
 * background work runs here. Tools, the memory runtime and automatic recall run the service's
 * operations as the token's agent; live capture cleans and redacts each snapshot in this process
 * (its cursors stay in this machine's Strata home) and ships the new messages through `capture`,
 * which the service makes idempotent. Distillation, the organiser and indexing are the service's.
 */
import { RemoteOperations, type RemoteOptions } from '../../remote/client.js';
import { remoteAutoRecall } from '../../remote/auto-recall.js';
import { remoteCapture } from '../../remote/capture.js';
import type { MemoryBackend } from './backend.js';
import { messageOf } from './engine.js';
import type { OpenClawLogger } from './types.js';

const REGISTRY = Symbol.for('strata.openclaw.remote.v1');

/**
 * One connection per service and token per process: OpenClaw registers the plugin several times,
 * and every registration must act as the same caller without asking the service again.
 */
function connections(): Map<string, Promise<RemoteOperations>> {
  const holder = globalThis as { [REGISTRY]?: Map<string, Promise<RemoteOperations>> };
  return (holder[REGISTRY] ??= new Map());
}

export function remoteBackend(options: { settings: RemoteOptions; home: string; log: OpenClawLogger }): MemoryBackend {
  const { settings, home, log } = options;
  const key = `${settings.url}\n${settings.token ?? ''}`;
  const connect = (): Promise<RemoteOperations> => {
    const open = connections();
    let connection = open.get(key);
    if (!connection) {
      // A failed connection is forgotten, so the next hook or tool call tries again.
      connection = RemoteOperations.connect(settings).catch((error: unknown) => {
        open.delete(key);
        throw error;
      });
      open.set(key, connection);
    }
    return connection;
  };
  const told = new Set<string>();
  let warming: Promise<void> | undefined;
  // The token decides who the plugin is on the service; an OpenClaw agent it does not name is told once.
  const asAgent = async (agentId: string): Promise<RemoteOperations> => {
    const ops = await connect();
    const tokenAgent = ops.caller.agentId;
    if (tokenAgent && tokenAgent !== agentId && !told.has(agentId)) {
      told.add(agentId);
      log.warn(
        `strata: OpenClaw agent ${agentId} uses the Strata service at ${settings.url} as ${tokenAgent}, the agent its token names; give that agent its own gateway or token to keep their memories apart.`,
      );
    }
    return ops;
  };

  return {
    kind: 'remote',
    where: settings.url,
    ops: asAgent,
    async recaller(agentId) {
      const ops = await asAgent(agentId);
      return { engine: { autoRecall: (o) => remoteAutoRecall(ops, o) }, scopes: ops.caller.scopes };
    },
    async capture(snapshot) {
      const ops = await asAgent(snapshot.agentId);
      const result = await remoteCapture({
        ops,
        home,
        // Filed under the token's agent (an owner token, which has none, files under OpenClaw's).
        agentId: ops.caller.agentId ?? snapshot.agentId,
        sessionKey: snapshot.sessionKey,
        sessionId: snapshot.sessionId,
        messages: snapshot.messages,
        host: 'openclaw',
      });
      return { new: result.new, duplicates: result.duplicates };
    },
    warm() {
      // Once per registration (automatic recall awaits it before every turn); a failure is tried again next turn.
      warming ??= (async () => {
        try {
          // stats opens the service's store for this caller, so the first recall does not pay for that.
          await (await connect()).run('stats', {});
        } catch (error) {
          warming = undefined;
          log.warn(`strata: cannot reach the Strata service at ${settings.url}: ${messageOf(error)}`);
        }
      })();
      return warming;
    },
    async startWorkers() {
      log.info(`strata: memory lives on the Strata service at ${settings.url}; distillation and indexing run there`);
    },
    distillSoon() {
      // The service's worker distils what capture sends it.
    },
    async stop() {
      connections().delete(key);
    },
  };
}
