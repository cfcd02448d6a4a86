import { z } from 'zod';

/**
 * Where fruit was grown and how it was treated after harvest, as New Zealand asks every offer of
 * fresh fruit to say: the Consumer Information Standards (Origin of Food) Regulations 2021 (country
 * of origin) and FSANZ Standard 1.5.3 (irradiation).
 */
export const treatments = ['irradiated', 'vapour-heat', 'hot-water', 'none'] as const;
export type Treatment = (typeof treatments)[number];

/** What the offer says of each treatment; the irradiation words are the Standard's own. */
export const treatmentLabels: Record<Treatment, string> = {
  irradiated: 'Treated with ionising radiation',
  'vapour-heat': 'Vapour-heat treated',
  'hot-water': 'Hot-water treated',
  none: 'No post-harvest treatment',
};

/** Staff's words for choosing a treatment. */
export const treatmentChoices: Record<Treatment, string> = {
  irradiated: 'Irradiated',
  'vapour-heat': 'Vapour-heat treated',
  'hot-water': 'Hot-water treated',
  none: 'No treatment',
};

const regionNames = new Intl.DisplayNames(['en-NZ'], { type: 'region', fallback: 'none' });

/** The English name of an ISO 3166-1 alpha-2 country code ("IN": India), or null for a code no country has. */
export function countryName(code: string): string | null {
  if (!/^[A-Z]{2}$/.test(code)) return null;
  // Codes reserved for private use or for groups (EU, UN, XA...) are no country's origin.
  if (/^(AA|Q[M-Z]|X[A-JL-Z]|ZZ|EU|EZ|UN)$/.test(code)) return null;
  return regionNames.of(code) ?? null;
}

/** A country of origin as staff send it: two letters, upper-cased, a real country. */
export const originCountryField = z
  .string({ error: 'Country of origin must be a two-letter country code, like IN' })
  .trim()
  .transform((value) => value.toUpperCase())
  .refine((code) => countryName(code) !== null, 'Country of origin must be a two-letter country code, like IN');

export const treatmentField = z.enum(treatments, { error: `Treatment must be one of: ${treatments.join(', ')}` });

/** "India", "India or Pakistan", "Australia, India or Pakistan". */
function either(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

export interface OriginView {
  /** ISO 3166-1 alpha-2 codes of every country the boxes sent now could come from; empty while unknown. */
  countries: string[];
  label: string;
}

export interface TreatmentView {
  kinds: Treatment[];
  label: string;
}

/** What an offer says of the countries its boxes could come from. */
export function originView(countries: Iterable<string>): OriginView {
  const codes = [...new Set(countries)].filter((code) => countryName(code) !== null).sort();
  const names = codes.map((code) => countryName(code)!).sort((a, b) => a.localeCompare(b, 'en-NZ'));
  return { countries: codes, label: codes.length ? `Grown in ${either(names)}` : 'Country of origin not yet recorded' };
}

/** What an offer says of the treatments its boxes could have had. */
export function treatmentView(kinds: Iterable<Treatment>): TreatmentView {
  const known = treatments.filter((kind) => [...kinds].includes(kind));
  if (!known.length) return { kinds: [], label: 'Treatment not yet recorded' };
  const [first, ...rest] = known.map((kind) => treatmentLabels[kind]);
  return { kinds: known, label: [first!, ...rest.map((label) => label.charAt(0).toLowerCase() + label.slice(1))].join(', or ') };
}

/** Every country a code names, by its English name: the choices of an origin field. */
export function countryChoices(): Array<{ code: string; name: string }> {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const choices: Array<{ code: string; name: string }> = [];
  for (const first of letters) {
    for (const second of letters) {
      const name = countryName(first + second);
      if (name) choices.push({ code: first + second, name });
    }
  }
  return choices.sort((a, b) => a.name.localeCompare(b.name, 'en-NZ'));
}
