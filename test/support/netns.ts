/**
 * Several hosts on one machine for tests of what crosses a network: one Linux network namespace
 * per host, each with a veth on a bridge in the test's own namespace (which is a host too, at
 * `.1`). Needs root and iproute2; `netnsUnavailable()` says why not, for a reasoned skip.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Host {
  name: string;
  /** Its address on the bridge. */
  ip: string;
  /** Command prefix that runs a program on this host. */
  exec: string[];
  /** Cuts the host off the network (true) or reconnects it (false). */
  unplug(down: boolean): Promise<void>;
}

export interface Network {
  /** The test process's own address on the bridge. */
  gatewayIp: string;
  cidr: string;
  hosts: Record<string, Host>;
  destroy(): Promise<void>;
}

export async function netnsUnavailable(): Promise<string | undefined> {
  if (process.platform !== 'linux') return 'network namespaces are Linux only';
  if (process.getuid?.() !== 0) return 'creating network namespaces needs root';
  try {
    await run('ip', ['-V']);
  } catch {
    return 'iproute2 (`ip`) is not installed';
  }
  return undefined;
}

const ip = async (...args: string[]): Promise<void> => void (await run('ip', args));

/** A bridge with one namespace per name; a random /24 in 10.0.0.0/8 and random names, so parallel runs never meet. */
export async function createNetwork(names: string[]): Promise<Network> {
  const id = randomBytes(3).toString('hex');
  const prefix = `10.${randomInt(64, 250)}.${randomInt(1, 250)}`;
  const bridge = `sbr${id}`;
  const created: string[] = [];
  const destroy = async () => {
    for (const ns of created) await ip('netns', 'del', ns).catch(() => undefined);
    await ip('link', 'del', bridge).catch(() => undefined);
  };
  try {
    await ip('link', 'add', bridge, 'type', 'bridge');
    await ip('addr', 'add', `${prefix}.1/24`, 'dev', bridge);
    await ip('link', 'set', bridge, 'up');
    const hosts: Record<string, Host> = {};
    for (const [i, name] of names.entries()) {
      const ns = `strata-${name}-${id}`;
      const outside = `sv${i}${id}`;
      await ip('netns', 'add', ns);
      created.push(ns);
      await ip('link', 'add', outside, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns);
      await ip('link', 'set', outside, 'master', bridge, 'up');
      const address = `${prefix}.${i + 2}`;
      await ip('-n', ns, 'addr', 'add', `${address}/24`, 'dev', 'eth0');
      await ip('-n', ns, 'link', 'set', 'eth0', 'up');
      await ip('-n', ns, 'link', 'set', 'lo', 'up');
      hosts[name] = {
        name,
        ip: address,
        exec: ['ip', 'netns', 'exec', ns],
        unplug: (down) => ip('link', 'set', outside, down ? 'down' : 'up'),
      };
    }
    return { gatewayIp: `${prefix}.1`, cidr: `${prefix}.0/24`, hosts, destroy };
  } catch (error) {
    await destroy();
    throw error;
  }
}
