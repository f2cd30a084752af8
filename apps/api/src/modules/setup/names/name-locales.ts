import { ErrorCode, ValidationError } from '@app/domain';
import type { allLocales } from '@faker-js/faker';

/** A locale module name published by faker under `@faker-js/faker/locale/<name>`. */
export type FakerLocaleName = keyof typeof allLocales;

/** Stands for "every locale in the catalogue" in a list of name locales. */
export const ALL_LOCALES_SENTINEL = '__all__';

/** The name locales used when none are chosen. */
export const DEFAULT_NAME_LOCALES: readonly string[] = Object.freeze([ALL_LOCALES_SENTINEL]);

/** The largest list of name locales accepted. */
export const MAX_NAME_LOCALES = 100;

/** At most this many unknown codes are named in one error. */
const MAX_REPORTED_CODES = 10;

/**
 * Every offered name locale (`ll_CC`) with the faker locale whose person names back it, grouped by
 * region. Only locales whose faker first and last names are Latin-script and specific to the language
 * (or inherited from its parent language, e.g. fr_CA from fr) are listed; locales that would fall back
 * to generic English names, joke variants and locales without a country are left out. Regions follow
 * the UN geoscheme where one of these groups fits (Mexico is in Central America, Latvia in Northern
 * Europe); Türkiye sits with Central / Eastern Europe and Azerbaijan with Central Asia.
 */
const CATALOGUE: Readonly<Record<string, Readonly<Record<string, FakerLocaleName>>>> = {
  Africa: {
    af_ZA: 'af_ZA',
    en_GH: 'en_GH',
    en_NG: 'en_NG',
    en_ZA: 'en_ZA',
    fr_SN: 'fr_SN',
    yo_NG: 'yo_NG',
    zu_ZA: 'zu_ZA',
  },
  'South Asia': {
    en_IN: 'en_IN',
    en_NP: 'en_NP',
  },
  'Southeast Asia': {
    id_ID: 'id_ID',
    vi_VN: 'vi',
  },
  'Central Asia': {
    az_AZ: 'az',
    uz_UZ: 'uz_UZ_latin',
  },
  'North America': {
    en_CA: 'en_CA',
    en_US: 'en_US',
    fr_CA: 'fr_CA',
  },
  'Central America': {
    es_MX: 'es_MX',
  },
  'South America': {
    pt_BR: 'pt_BR',
  },
  'Pacific / Oceania': {
    en_AU: 'en_AU',
  },
  'Western Europe': {
    de_AT: 'de_AT',
    de_CH: 'de_CH',
    de_DE: 'de',
    en_GB: 'en_GB',
    en_IE: 'en_IE',
    es_ES: 'es',
    fr_BE: 'fr_BE',
    fr_CH: 'fr_CH',
    fr_FR: 'fr',
    fr_LU: 'fr_LU',
    it_IT: 'it',
    nl_BE: 'nl_BE',
    nl_NL: 'nl',
    pt_PT: 'pt_PT',
  },
  'Northern Europe': {
    da_DK: 'da',
    fi_FI: 'fi',
    lv_LV: 'lv',
    nb_NO: 'nb_NO',
    sv_SE: 'sv',
  },
  'Central / Eastern Europe': {
    cs_CZ: 'cs_CZ',
    hr_HR: 'hr',
    hu_HU: 'hu',
    pl_PL: 'pl',
    ro_MD: 'ro_MD',
    ro_RO: 'ro',
    sk_SK: 'sk',
    sl_SI: 'sl_SI',
    sr_RS: 'sr_RS_latin',
    tr_TR: 'tr',
  },
};

const FAKER_LOCALES: ReadonlyMap<string, FakerLocaleName> = new Map(
  Object.values(CATALOGUE).flatMap((codes) => Object.entries(codes)),
);

/** The name locale codes of each region, sorted within the region. */
export const NAME_LOCALE_REGIONS: Readonly<Record<string, readonly string[]>> = Object.freeze(
  Object.fromEntries(
    Object.entries(CATALOGUE).map(([region, codes]) => [region, Object.freeze(Object.keys(codes).sort())]),
  ),
);

/** Every name locale code in the catalogue, sorted. */
export const AVAILABLE_NAME_LOCALES: readonly string[] = Object.freeze([...FAKER_LOCALES.keys()].sort());

/** Whether `code` is a name locale in the catalogue (the sentinel is not). */
export function isNameLocale(code: string): boolean {
  return FAKER_LOCALES.has(code);
}

/** The faker locale backing a catalogue code; throws for a code outside the catalogue. */
export function fakerLocaleFor(code: string): FakerLocaleName {
  const fakerLocale = FAKER_LOCALES.get(code);
  if (fakerLocale === undefined) {
    throw new ValidationError(`Unknown name locale ${describe(code)}`, ErrorCode.RequestValidationError);
  }
  return fakerLocale;
}

let displayNames: Readonly<Record<string, string>> | undefined;

/** English labels for every catalogue code, e.g. `en_US` → "English (United States)". */
export function nameLocaleDisplayNames(): Record<string, string> {
  if (displayNames === undefined) {
    const labels = new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard' });
    displayNames = Object.freeze(
      Object.fromEntries(AVAILABLE_NAME_LOCALES.map((code) => [code, labelFor(labels, code)])),
    );
  }
  return { ...displayNames };
}

function labelFor(labels: Intl.DisplayNames, code: string): string {
  try {
    const label = labels.of(code.replace('_', '-'));
    return label !== undefined && label.trim() !== '' ? label : code;
  } catch {
    return code;
  }
}

/**
 * Validates a list of name locales and returns it without duplicates, in first-seen order. The list is
 * either the sentinel alone or 1 to {@link MAX_NAME_LOCALES} catalogue codes.
 */
export function normalizeNameLocales(input: readonly string[]): string[] {
  const fail = (message: string): never => {
    throw new ValidationError(`nameLocales: ${message}`, ErrorCode.RequestValidationError);
  };
  if (!Array.isArray(input)) {
    return fail('must be a list of locale codes');
  }
  if (input.length === 0) {
    return fail(`must name at least one locale, or be ["${ALL_LOCALES_SENTINEL}"] for all of them`);
  }
  if (input.length > MAX_NAME_LOCALES) {
    return fail(`must have at most ${MAX_NAME_LOCALES} entries (got ${input.length})`);
  }
  const unique = [...new Set<unknown>(input)];
  if (unique.includes(ALL_LOCALES_SENTINEL)) {
    if (unique.length > 1) {
      return fail(`"${ALL_LOCALES_SENTINEL}" cannot be combined with specific locales`);
    }
    return [ALL_LOCALES_SENTINEL];
  }
  const unknown = unique.filter((code) => typeof code !== 'string' || !FAKER_LOCALES.has(code));
  if (unknown.length > 0) {
    const shown = unknown.slice(0, MAX_REPORTED_CODES).map(describe).join(', ');
    const more = unknown.length > MAX_REPORTED_CODES ? ` and ${unknown.length - MAX_REPORTED_CODES} more` : '';
    return fail(
      `unknown locale${unknown.length === 1 ? '' : 's'} ${shown}${more}; ` +
        `use codes such as "en_US" from the catalogue, or "${ALL_LOCALES_SENTINEL}"`,
    );
  }
  return unique as string[];
}

/** A short, quoted rendering of a caller-supplied value for error messages. */
function describe(value: unknown): string {
  if (typeof value !== 'string') {
    return value === null ? 'null' : typeof value;
  }
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}
