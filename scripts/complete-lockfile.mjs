#!/usr/bin/env node
// The registry mirror this project is developed against serves only the linux-x64 builds of
// platform-specific optional packages (LanceDB, Rollup, esbuild, ...), so `npm install` leaves
// the other platforms out of package-lock.json and `npm ci` then refuses the lock as out of sync.
// This adds the entries npm would have written (version, os, cpu, optional) for every missing
// optional dependency; npm skips them on non-matching platforms, exactly as with a normal lock.
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;

function platformOf(name) {
  const base = name.split('/').pop();
  const os = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony'].find((o) =>
    base.includes(o),
  );
  const cpu = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el', 'wasm32'].find((c) =>
    new RegExp(`(^|-)${c}(-|$)`).test(base),
  );
  const libc = /musl/.test(base) ? 'musl' : /gnu/.test(base) ? 'glibc' : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [key, entry] of Object.entries(packages)) {
  for (const [dep, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    // npm resolves a dependency from the nearest node_modules up the tree.
    const parts = key ? key.split('node_modules/').length : 0;
    const candidates = [key ? `${key}/node_modules/${dep}` : `node_modules/${dep}`, `node_modules/${dep}`];
    if (parts < 0 || candidates.some((c) => packages[c])) continue;
    const { os, cpu, libc } = platformOf(dep);
    if (!os && !cpu) continue; // not a platform build: leave it to npm
    const version = String(spec).replace(/^[\^~=]/, '');
    if (!/^\d+\.\d+\.\d+/.test(version)) continue;
    packages[`node_modules/${dep}`] = {
      version,
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(libc ? { libc: [libc] } : {}),
      optional: true,
      ...(os ? { os: [os] } : {}),
    };
    if (entry.dev) packages[`node_modules/${dep}`].dev = true;
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(path, JSON.stringify(lock, null, 2) + '\n');
console.log(`complete-lockfile: added ${added} platform entries`);
