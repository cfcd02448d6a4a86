import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './harness';

/**
 * A throwaway PostgreSQL server on loopback, from Debian's packages, that a test may stop and
 * start again. PostgreSQL refuses to run as root, so as root it runs as the `postgres` user.
 */
export class PostgresCluster {
  private constructor(
    private readonly bin: string,
    private readonly dir: string,
    readonly port: number,
  ) {}

  /** Where Debian installs PostgreSQL's programs, newest version first; undefined when absent. */
  static binaries(): string | undefined {
    const root = '/usr/lib/postgresql';
    if (!fs.existsSync(root)) return undefined;
    const versions = fs
      .readdirSync(root)
      .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (!versions.length) return undefined;
    // As root the server runs as `postgres`; as anyone else, as that user.
    if (process.getuid?.() === 0 && !hasPostgresUser()) return undefined;
    return path.join(root, versions[0]!, 'bin');
  }

  static async create(bin: string): Promise<PostgresCluster> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-pg-'));
    if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', dir]);
    const cluster = new PostgresCluster(bin, dir, await freePort());
    try {
      await cluster.run('initdb', ['-D', cluster.dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
      await cluster.start();
      return cluster;
    } catch (error) {
      await cluster.destroy();
      throw error;
    }
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  start(): Promise<void> {
    return this.run('pg_ctl', [
      '-D',
      this.dataDir,
      '-l',
      path.join(this.dir, 'server.log'),
      '-w',
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
  }

  /** A fast shutdown: sessions are ended, open transactions rolled back, as a restart does. */
  stop(): Promise<void> {
    return this.run('pg_ctl', ['-D', this.dataDir, '-m', 'fast', '-w', 'stop']);
  }

  async destroy(): Promise<void> {
    await this.stop().catch(() => undefined);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /** Without blocking the test's own event loop: its shoppers keep going while PostgreSQL stops. */
  private async run(program: string, args: string[]): Promise<void> {
    const command = path.join(this.bin, program);
    if (process.getuid?.() === 0) {
      const quoted = [command, ...args].map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
      await run('su', ['postgres', '-s', '/bin/sh', '-c', quoted], { timeout: 60_000 });
    } else {
      await run(command, args, { timeout: 60_000 });
    }
  }
}

const run = promisify(execFile);

function hasPostgresUser(): boolean {
  try {
    execFileSync('id', ['postgres'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}
