/**
 * An earlier commit of the shop, checked out beside this one so a report can measure both in the
 * same run: a detached git worktree in a temporary folder, sharing this checkout's node_modules
 * when its package-lock.json is the same, or with its own (npm ci) when it is not.
 * It is built and run by bench/shop-server.ts like this checkout.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { leftover } from './bench-process';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface BaselineTree {
  ref: string;
  commit: string;
  tree: string;
  /** Removes the worktree and its folder; safe to call more than once. */
  remove(): void;
}

export function git(args: string[], cwd = root): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${(result.stderr || result.error?.message || '').trim()}`);
  return result.stdout.trim();
}

export function checkOutBaseline(ref: string): BaselineTree {
  const commit = git(['rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`]);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-bench-baseline-'));
  // A bench that exits early (Ctrl-C, a crash) removes it on its way out; one that is killed leaves
  // it to the reaper, which removes the folder, and to `git worktree prune` for git's record of it.
  leftover({ folder: scratch });
  const tree = path.join(scratch, 'shop');
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    process.off('exit', remove);
    // A shared node_modules is unlinked first, so nothing that removes the tree can reach it.
    const modules = path.join(tree, 'node_modules');
    if (fs.lstatSync(modules, { throwIfNoEntry: false })?.isSymbolicLink()) fs.rmSync(modules, { force: true });
    if (fs.existsSync(tree)) spawnSync('git', ['worktree', 'remove', '--force', tree], { cwd: root, stdio: 'ignore' });
    fs.rmSync(scratch, { recursive: true, force: true, maxRetries: 5 });
    leftover({ folder: scratch }, true);
  };
  process.once('exit', remove);
  try {
    git(['worktree', 'add', '--detach', '--quiet', tree, commit]);
    // The same dependencies share this checkout's node_modules; others get their own install.
    const sameLock = fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8') === fs.readFileSync(path.join(tree, 'package-lock.json'), 'utf8');
    if (sameLock) fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules')), path.join(tree, 'node_modules'));
    else {
      console.log(`  ${ref} has other dependencies: installing them in its worktree (npm ci)`);
      const install = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: tree, stdio: ['ignore', 'ignore', 'inherit'], timeout: 10 * 60_000 });
      if (install.status !== 0) throw new Error(`npm ci in the worktree of ${ref} failed (${install.error?.message ?? `exit ${install.status}`})`);
    }
  } catch (error) {
    remove();
    throw error;
  }
  return { ref, commit, tree, remove };
}
