import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const recipePath = fileURLToPath(new URL('../../../deploy/varnish/mango-shop.vcl', import.meta.url));

/** Debian's varnishd, when installed with varnish-modules' xkey (what the recipe needs). */
export function varnishBinary(): string | undefined {
  const daemon = ['/usr/sbin/varnishd', '/usr/bin/varnishd'].find((candidate) => fs.existsSync(candidate));
  const vmods = ['/usr/lib/x86_64-linux-gnu/varnish/vmods', '/usr/lib/aarch64-linux-gnu/varnish/vmods', '/usr/lib/varnish/vmods'];
  return daemon && vmods.some((dir) => fs.existsSync(path.join(dir, 'libvmod_xkey.so'))) ? daemon : undefined;
}

/**
 * Writes, in `dir`, the repository's VCL as it is but with its backend on loopback `backendPort`:
 * what the cache test and the bench run Varnish with.
 */
export function writeVarnishConfig(dir: string, backendPort: number): string {
  const recipe = fs.readFileSync(recipePath, 'utf8');
  if (!recipe.includes('.port = "8080";')) throw new Error(`${recipePath} no longer has its backend on port 8080`);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'mango-shop.vcl');
  fs.writeFileSync(file, recipe.replace('.port = "8080";', `.port = "${backendPort}";`));
  return file;
}

/**
 * Arguments for a foreground varnishd on loopback `port`, and its purge listener on `purgePort`,
 * with the written VCL; its working folder is `dir/work`. Run as root, varnishd drops to its own
 * user, which must be able to read the folder.
 */
export function varnishArguments(dir: string, vcl: string, port: number, purgePort: number): string[] {
  const work = path.join(dir, 'work');
  fs.mkdirSync(work, { recursive: true, mode: 0o755 });
  fs.chmodSync(dir, 0o755);
  const jail = process.getuid?.() === 0 ? [] : ['-j', 'none'];
  return ['-F', '-f', vcl, '-n', work, '-a', `127.0.0.1:${port}`, '-a', `purge=127.0.0.1:${purgePort}`, '-s', 'malloc,128m', ...jail];
}
