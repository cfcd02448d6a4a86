import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const recipePath = fileURLToPath(new URL('../../../deploy/nginx/mango-shop.conf', import.meta.url));

/**
 * Writes, in `dir`, the repository's nginx recipe as it is but with one upstream line per shop port
 * and listening on loopback `port`, inside a main configuration of its own (no daemon, its own pid,
 * logs and temporary folders): what the fault test and the bench run nginx with. `extraHttp`:
 * lines the bench adds to the `http` block; the fault test runs the recipe alone.
 */
export function writeNginxConfig(dir: string, shopPorts: number[], port: number, extraHttp = ''): string {
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.mkdirSync(path.join(dir, temp), { recursive: true, mode: 0o777 });
  fs.chmodSync(dir, 0o777);
  const recipe = fs.readFileSync(recipePath, 'utf8');
  // The recipe's upstream has one `server 127.0.0.1:300N ...;` line per process.
  const line = /^\s*server 127\.0\.0\.1:3001 (.*)$/m.exec(recipe);
  if (!line || !recipe.includes('listen 80;')) throw new Error(`${recipePath} no longer has the upstream line for 127.0.0.1:3001 or "listen 80;"`);
  const servers = shopPorts.map((shopPort) => `    server 127.0.0.1:${shopPort} ${line[1]}`).join('\n');
  const adapted = recipe
    .replace(/^\s*server 127\.0\.0\.1:300\d .*\n/gm, '')
    .replace(/upstream mango_shop \{\n/, `upstream mango_shop {\n${servers}\n`)
    .replace('listen 80;', `listen 127.0.0.1:${port};`);
  fs.writeFileSync(path.join(dir, 'mango-shop.conf'), adapted);
  const main = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    main,
    `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
${extraHttp}  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/mango-shop.conf;
}
`,
  );
  return main;
}
