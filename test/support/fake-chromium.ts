import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether a process with this pid exists. */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * An executable that records its pid and --user-data-dir, then sleeps without ever printing the
 * DevTools endpoint: puppeteer waits for it until its launch timeout.
 */
function hangingChromium(dir: string, name: string) {
  const path = join(dir, name);
  const out = join(dir, `${name}.started`);
  writeFileSync(path, `#!/bin/sh\nfor a in "$@"; do case "$a" in --user-data-dir=*) d="\${a#--user-data-dir=}";; esac; done\necho "$$ $d" > "${out}.tmp" && mv "${out}.tmp" "${out}"\nexec sleep 600\n`, { mode: 0o755 });
  const read = () => {
    const [pid, profileDir] = readFileSync(out, 'utf8').trim().split(' ');
    return { pid: Number(pid), profileDir };
  };
  return {
    path,
    wasStarted: () => existsSync(out),
    async started() {
      while (!existsSync(out)) await new Promise((r) => setTimeout(r, 20));
      return read();
    },
  };
}

/** A temp folder of fake Chromium executables ({@link hangingChromium}); `remove()` deletes it. */
export function fakeChromiums() {
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-fake-chromium-'));
  return { hanging: (name: string) => hangingChromium(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
