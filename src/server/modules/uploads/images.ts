import { createHash } from 'node:crypto';

export const imageKinds = {
  jpg: { type: 'image/jpeg', matches: (b: Buffer) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  png: { type: 'image/png', matches: (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  webp: { type: 'image/webp', matches: (b: Buffer) => b.length > 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP' },
} as const;

export type ImageExtension = keyof typeof imageKinds;

/** Stored names are the content's hash (see imageName), so a picture is cached forever under its name. */
export const storedImageName = /^[a-f0-9]{32}\.(jpg|png|webp)$/;

export const maxImageBytes = 5 * 1024 * 1024;

/** What the file really is, from its first bytes; the name and the browser's type are not trusted. */
export function sniffImage(bytes: Buffer): ImageExtension | undefined {
  return (Object.keys(imageKinds) as ImageExtension[]).find((ext) => imageKinds[ext].matches(bytes));
}

/** A picture's stored name: its content's hash, so the same picture uploaded twice is one image. */
export function imageName(bytes: Buffer, ext: ImageExtension): string {
  return `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${ext}`;
}
