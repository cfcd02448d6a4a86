/**
 * Cleans up after the bench even when the bench dies without doing it (a crash, or tsx killing
 * it when Ctrl-C finds it busy): the bench tells this process, one JSON line at a time on its
 * stdin, each process group and folder it starts and ends; when that pipe closes, the groups
 * still alive get SIGTERM, then SIGKILL after a grace period, and the folders are removed.
 */
import fs from 'node:fs';
import readline from 'node:readline';

export type Leftover = { group: number } | { folder: string };
export type ReaperMessage = Leftover & { done?: true };

const graceMs = 10_000;
const groups = new Set<number>();
const folders = new Set<string>();

// The closing pipe says when to act; a Ctrl-C meant for the bench must not end this one first.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => {});

const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const message = JSON.parse(line) as ReaperMessage;
  const [set, value] = 'group' in message ? [groups as Set<unknown>, message.group] : [folders as Set<unknown>, message.folder];
  if (message.done) set.delete(value);
  else set.add(value);
});
lines.on('close', async () => {
  for (const group of groups) signalGroup(group, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while ([...groups].some((group) => signalGroup(group, 0)) && Date.now() < deadline) await sleep(100);
  for (const group of groups) signalGroup(group, 'SIGKILL');
  if (groups.size) await sleep(500);
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true, maxRetries: 5 });
  process.exit(0);
});

/** Signal 0 only asks whether the group still has a process. */
function signalGroup(group: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-group, signal);
    return true;
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
