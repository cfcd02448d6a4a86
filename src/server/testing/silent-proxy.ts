import net from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that can go silent on chosen connections, as a load balancer,
 * NAT or firewall that lost a flow in a failover does: from then on it forwards nothing either way
 * and closes nothing. Both ends keep an open socket and hear no FIN or RST, the server keeps the
 * session (and its LISTEN), and the client's kernel still has a live peer (the proxy) answering
 * its keepalive probes. Only a round trip through the database can tell that the connection is dead.
 */
export interface SilentProxy {
  /** The database URL, pointed at the proxy. */
  url: string;
  /** How many connections the application named in their start-up message has opened so far. */
  opened(applicationName: string): number;
  /** Silences the application's open connections; connections it opens later pass as usual. */
  silence(applicationName: string): void;
  close(): Promise<void>;
}

interface Link {
  applicationName: string | undefined;
  silent: boolean;
  sockets: net.Socket[];
}

export async function startSilentProxy(databaseUrl: string): Promise<SilentProxy> {
  const target = new URL(databaseUrl);
  const links: Link[] = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const link: Link = { applicationName: undefined, silent: false, sockets: [client, upstream] };
    links.push(link);
    client.on('data', (chunk) => {
      link.applicationName ??= startupParameter(chunk, 'application_name');
      if (!link.silent) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!link.silent) client.write(chunk);
    });
    client.on('close', () => link.silent || upstream.destroy());
    upstream.on('close', () => link.silent || client.destroy());
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  const named = (applicationName: string) => links.filter((link) => link.applicationName === applicationName);
  return {
    url: url.toString(),
    opened: (applicationName) => named(applicationName).length,
    silence(applicationName) {
      for (const link of named(applicationName)) link.silent = true;
    },
    async close() {
      for (const link of links) for (const socket of link.sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A parameter of PostgreSQL's start-up message (length, protocol, then name/value C strings). */
function startupParameter(message: Buffer, name: string): string {
  const fields = message.subarray(8).toString('utf8').split('\0');
  const at = fields.indexOf(name);
  return at >= 0 && at % 2 === 0 ? (fields[at + 1] ?? '') : '';
}
