/** An ILIKE pattern that finds `text` anywhere; `%`, `_` and `\` typed by staff match themselves. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
