import fs from 'node:fs';
import path from 'node:path';
import type { Archive } from './backup-archive';
import { writeWhole } from './backup';

const namePattern = /^mango-backup-\d{8}T\d{6}Z\.tar$/;
/** After a failed backup, the next try comes this soon (or at the usual time, if that is sooner). */
const retryAfterMs = 60 * 60 * 1000;
/** A start with its backup overdue waits this long first, so a restart loop does not back up in a loop. */
const firstAfterMs = 60 * 1000;

interface Log {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export function backupFileName(at: Date): string {
  return `mango-backup-${at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}.tar`;
}

/**
 * The embedded database's own backups (BACKUP_DIR): one every `everyMs`, counted from the newest
 * backup already in the folder, so restarts neither skip nor repeat one. Each is written whole or
 * not at all, the oldest beyond `keep` are deleted (only files this shop named), and each backup
 * or failure is logged.
 */
export class ScheduledBackups {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly make: () => Promise<Archive>,
    private readonly settings: { dir: string; everyMs: number; keep: number },
    private readonly log: Log,
    private readonly now: () => Date = () => new Date(),
  ) {}

  start(): void {
    let dueAt = 0;
    try {
      fs.mkdirSync(this.settings.dir, { recursive: true });
      const newest = this.backups()[0];
      if (newest) dueAt = fs.statSync(path.join(this.settings.dir, newest)).mtimeMs + this.settings.everyMs;
    } catch (error) {
      // The first backup will say what is wrong with the folder, in the log, and be tried again.
      this.log.error({ err: error, dir: this.settings.dir }, 'the backup folder cannot be read');
    }
    this.schedule(Math.max(dueAt - this.now().getTime(), firstAfterMs));
  }

  /** Makes one backup now, then prunes; resolves once it is written (or its failure logged). */
  runOnce(): Promise<void> {
    this.running ??= this.backUp().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** The backups in the folder, newest first. */
  backups(): string[] {
    if (!fs.existsSync(this.settings.dir)) return [];
    return fs
      .readdirSync(this.settings.dir)
      .filter((name) => namePattern.test(name))
      .sort()
      .reverse();
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    // A timer waits at most about 24 days: a longer wait is made of several.
    const longestTimerMs = 2 ** 31 - 1;
    const dueAt = Date.now() + delayMs;
    const arm = () => {
      const left = dueAt - Date.now();
      this.timer = setTimeout(() => (left > longestTimerMs ? arm() : void this.runOnce()), Math.min(Math.max(left, 0), longestTimerMs));
      this.timer.unref();
    };
    arm();
  }

  private async backUp(): Promise<void> {
    const started = Date.now();
    let next = this.settings.everyMs;
    try {
      const file = path.join(this.settings.dir, backupFileName(this.now()));
      const bytes = await writeWhole(file, await this.make());
      const deleted = this.backups().slice(this.settings.keep);
      for (const name of deleted) fs.rmSync(path.join(this.settings.dir, name), { force: true });
      this.log.info({ file, bytes, ms: Date.now() - started, kept: Math.min(this.backups().length, this.settings.keep), deleted: deleted.length }, 'backed up the shop');
    } catch (error) {
      next = Math.min(next, retryAfterMs);
      this.log.error({ err: error, dir: this.settings.dir, retryInMs: next }, 'the scheduled backup failed');
    }
    this.schedule(next);
  }
}
