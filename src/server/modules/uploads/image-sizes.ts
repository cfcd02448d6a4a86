import fs from 'node:fs/promises';
import path from 'node:path';
import type { ImageInfo } from '../../../contracts/image';
import { storedImageName } from './images';
import type { ImageStore } from './service';

const uploadPrefix = '/uploads/';
const svgOpening = /<svg\b[^>]*>/i;

/** An SVG's intrinsic size: its width and height attributes, else its viewBox. */
export function svgSize(svg: string): { width: number; height: number } | undefined {
  const tag = svgOpening.exec(svg)?.[0];
  if (!tag) return undefined;
  const attribute = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(tag)?.[1];
  const width = Number.parseFloat(attribute('width') ?? '');
  const height = Number.parseFloat(attribute('height') ?? '');
  if (width > 0 && height > 0) return { width, height };
  const box = attribute('viewBox')?.trim().split(/[\s,]+/).map(Number);
  if (box?.length === 4 && box[2]! > 0 && box[3]! > 0) return { width: box[2]!, height: box[3]! };
  return undefined;
}

async function readSvgSizes(publicDir: string): Promise<Map<string, ImageInfo>> {
  const sizes = new Map<string, ImageInfo>();
  const files = await fs.readdir(path.join(publicDir, 'images'), { recursive: true }).catch(() => []);
  for (const file of files.filter((name) => name.endsWith('.svg'))) {
    // One unreadable file leaves that picture without a size, not every picture.
    const size = svgSize(await fs.readFile(path.join(publicDir, 'images', file), 'utf8').catch(() => ''));
    const url = `/images/${file.split(path.sep).join('/')}`;
    if (size) sizes.set(url, { url, ...size, widths: [] });
  }
  return sizes;
}

/**
 * The size and variant widths of the pictures the API names (decision 0012): the shop's own SVGs
 * are read once from the public folder; uploads come from the database, and are remembered once
 * their variants exist, since a stored picture never changes.
 */
export class ImageSizes {
  private svgs: Promise<Map<string, ImageInfo>> | undefined;
  private readonly uploads = new Map<string, ImageInfo>();

  constructor(
    private readonly store: ImageStore,
    private readonly publicDir: string | undefined,
  ) {}

  /** What is known of each URL given; an unknown or undecodable picture is left out. */
  async describe(urls: Iterable<string | null>): Promise<Map<string, ImageInfo>> {
    const known = new Map<string, ImageInfo>();
    const unknownUploads: string[] = [];
    this.svgs ??= this.publicDir ? readSvgSizes(this.publicDir) : Promise.resolve(new Map());
    const svgs = await this.svgs;
    for (const url of new Set(urls)) {
      if (!url) continue;
      const info = svgs.get(url) ?? this.uploads.get(url);
      if (info) known.set(url, info);
      else if (url.startsWith(uploadPrefix) && storedImageName.test(url.slice(uploadPrefix.length))) unknownUploads.push(url.slice(uploadPrefix.length));
    }
    for (const row of await this.store.sizes(unknownUploads)) {
      if (row.width === null || row.height === null) continue;
      const info: ImageInfo = { url: `${uploadPrefix}${row.name}`, width: row.width, height: row.height, widths: row.variantWidths ?? [] };
      known.set(info.url, info);
      if (row.variantWidths) this.uploads.set(info.url, info);
    }
    return known;
  }
}
