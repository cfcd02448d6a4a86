import fs from 'node:fs';
import path from 'node:path';

/** The e2e server writes every e-mail to its outbox folder; journeys read links from there. */
export function latestMailTo(address: string): string {
  const outbox = path.join(process.env.MANGO_E2E_DATA_DIR ?? '', 'outbox');
  const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith('.eml')).sort() : [];
  for (const file of files.reverse()) {
    const mail = fs.readFileSync(path.join(outbox, file), 'utf8');
    if (mail.includes(`To: ${address}`)) return mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  }
  throw new Error(`no mail to ${address} in ${outbox}`);
}

/** The token of the newest reset link mailed to the address, or '' while none has arrived. */
export function resetTokenMailedTo(address: string): string {
  try {
    return /reset-password\?token=([\w-]+)/.exec(latestMailTo(address))?.[1] ?? '';
  } catch {
    return '';
  }
}
