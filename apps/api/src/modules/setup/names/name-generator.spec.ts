import { ErrorCode, ValidationError } from '@app/domain';

import { isLatinScriptName, MAX_GENERATED_NAME_LENGTH, NameGenerator } from './name-generator';
import {
  ALL_LOCALES_SENTINEL,
  AVAILABLE_NAME_LOCALES,
  DEFAULT_NAME_LOCALES,
  fakerLocaleFor,
  MAX_NAME_LOCALES,
  NAME_LOCALE_REGIONS,
  nameLocaleDisplayNames,
  normalizeNameLocales,
} from './name-locales';

/** Latin letters (with any combining accents), spaces, apostrophes, dots and hyphens. */
const LATIN_NAME = /^[\p{Script=Latin}\p{M}\s'’‘ʻʼ.-]+$/u;

const REGIONS = [
  'Africa',
  'South Asia',
  'Southeast Asia',
  'Central Asia',
  'North America',
  'Central America',
  'South America',
  'Pacific / Oceania',
  'Western Europe',
  'Northern Europe',
  'Central / Eastern Europe',
];

function expectValidationError(run: () => unknown, fragment: string): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ValidationError);
  const error = caught as ValidationError;
  expect(error.code).toBe(ErrorCode.RequestValidationError);
  expect(error.message).toContain(fragment);
}

describe('name locale catalogue', () => {
  it('should group every code under exactly the expected regions', () => {
    expect(Object.keys(NAME_LOCALE_REGIONS)).toEqual(REGIONS);
    for (const region of REGIONS) {
      expect(NAME_LOCALE_REGIONS[region].length).toBeGreaterThan(0);
    }
    const grouped = Object.values(NAME_LOCALE_REGIONS).flat();
    expect(new Set(grouped).size).toBe(grouped.length);
    expect([...grouped].sort()).toEqual(AVAILABLE_NAME_LOCALES);
  });

  it('should list sorted ll_CC codes', () => {
    expect(AVAILABLE_NAME_LOCALES).toEqual([...AVAILABLE_NAME_LOCALES].sort());
    for (const code of AVAILABLE_NAME_LOCALES) {
      expect(code).toMatch(/^[a-z]{2}_[A-Z]{2}$/);
    }
    expect(AVAILABLE_NAME_LOCALES).toEqual(expect.arrayContaining(['en_US', 'de_DE', 'fr_CA', 'pt_BR', 'nb_NO']));
  });

  it('should back codes with the matching faker locales', () => {
    expect(fakerLocaleFor('de_DE')).toBe('de');
    expect(fakerLocaleFor('fr_FR')).toBe('fr');
    expect(fakerLocaleFor('nb_NO')).toBe('nb_NO');
    expect(fakerLocaleFor('uz_UZ')).toBe('uz_UZ_latin');
    expect(() => fakerLocaleFor('xx_XX')).toThrow(ValidationError);
  });

  it('should label every code in English', () => {
    const labels = nameLocaleDisplayNames();
    expect(Object.keys(labels).sort()).toEqual(AVAILABLE_NAME_LOCALES);
    for (const code of AVAILABLE_NAME_LOCALES) {
      expect(labels[code].trim()).not.toBe('');
    }
    expect(labels.en_US).toBe('English (United States)');
    expect(labels.de_CH).toBe('German (Switzerland)');
  });

  it('should hand out a copy of the labels', () => {
    nameLocaleDisplayNames().en_US = 'changed';
    expect(nameLocaleDisplayNames().en_US).toBe('English (United States)');
  });

  it('should default to every locale', () => {
    expect(DEFAULT_NAME_LOCALES).toEqual([ALL_LOCALES_SENTINEL]);
    expect(ALL_LOCALES_SENTINEL).toBe('__all__');
  });
});

describe(normalizeNameLocales.name, () => {
  it('should accept the sentinel alone', () => {
    expect(normalizeNameLocales(['__all__'])).toEqual(['__all__']);
  });

  it('should accept known codes, dropping duplicates and keeping order', () => {
    expect(normalizeNameLocales(['fr_FR', 'en_US', 'fr_FR', 'de_DE', 'en_US'])).toEqual(['fr_FR', 'en_US', 'de_DE']);
  });

  it('should accept every catalogue code at once', () => {
    expect(normalizeNameLocales(AVAILABLE_NAME_LOCALES)).toEqual(AVAILABLE_NAME_LOCALES);
  });

  it('should reject an empty list', () => {
    expectValidationError(() => normalizeNameLocales([]), 'at least one locale');
  });

  it('should reject unknown codes and name them', () => {
    expectValidationError(() => normalizeNameLocales(['en_US', 'xx_XX', 'en-GB']), '"xx_XX", "en-GB"');
  });

  it('should reject the sentinel mixed with codes', () => {
    expectValidationError(() => normalizeNameLocales(['__all__', 'en_US']), 'cannot be combined');
  });

  it('should reject more than the maximum number of entries', () => {
    const tooMany = Array.from({ length: MAX_NAME_LOCALES + 1 }, () => 'en_US');
    expectValidationError(() => normalizeNameLocales(tooMany), `at most ${MAX_NAME_LOCALES}`);
    expect(normalizeNameLocales(tooMany.slice(1))).toEqual(['en_US']);
  });

  it('should reject entries that are not strings', () => {
    expectValidationError(() => normalizeNameLocales([42 as unknown as string]), 'unknown locale number');
  });
});

describe(NameGenerator.name, () => {
  it.each(AVAILABLE_NAME_LOCALES)('should make Latin-script "First Last" names for %s', (code) => {
    const generator = new NameGenerator({ seed: 11 });
    for (let i = 0; i < 25; i += 1) {
      const name = generator.randomName([code]);
      expect(name).toMatch(LATIN_NAME);
      expect(name).toContain(' ');
      expect(name).toBe(name.trim());
      expect(name.length).toBeLessThanOrEqual(MAX_GENERATED_NAME_LENGTH);
    }
  });

  it('should tell Latin-script names from stray data', () => {
    for (const name of [
      'Jean-Luc Picard',
      "Siobhán O'Brien",
      'Madina Mo‘minova',
      'Akyeamfuɔ Ọládípọ̀',
      'Ştefan Ţurcanu',
    ]) {
      expect(isLatinScriptName(name)).toBe(true);
    }
    for (const name of ['Nimakoah Akyerεko', 'Ã\u0096mer Jansen', 'Иван Петров', '', ' Anna', 'Anna  Berg']) {
      expect(isLatinScriptName(name)).toBe(false);
    }
  });

  it('should repeat the same names for the same seed', () => {
    const sequence = (seed: number) => {
      const generator = new NameGenerator({ seed });
      return Array.from({ length: 30 }, () => generator.randomName([ALL_LOCALES_SENTINEL]));
    };
    expect(sequence(7)).toEqual(sequence(7));
    expect(sequence(7)).not.toEqual(sequence(8));
  });

  it('should not let one seeded generator disturb another', () => {
    const alone = new NameGenerator({ seed: 3 });
    const expected = Array.from({ length: 10 }, () => alone.randomName(['de_DE']));
    const interleaved = new NameGenerator({ seed: 3 });
    const other = new NameGenerator({ seed: 99 });
    const actual = Array.from({ length: 10 }, () => {
      other.randomName(['de_DE']);
      return interleaved.randomName(['de_DE']);
    });
    expect(actual).toEqual(expected);
  });

  it('should spread picks across the chosen locales', () => {
    const generator = new NameGenerator({ seed: 5 });
    const names = new Set(Array.from({ length: 60 }, () => generator.randomName(['vi_VN', 'pl_PL'])));
    // Vietnamese names carry letters such as "ư", "ơ" or "đ"; Polish ones are drawn from other lists.
    expect([...names].some((name) => /[ăâđêôơư]/iu.test(name))).toBe(true);
    expect(names.size).toBeGreaterThan(40);
  });

  it('should be random without a seed', () => {
    const first = new NameGenerator();
    const second = new NameGenerator();
    const draw = (generator: NameGenerator) => Array.from({ length: 10 }, () => generator.randomName(['__all__']));
    expect(draw(first)).not.toEqual(draw(second));
  });

  it('should avoid a name that is already taken', () => {
    const taken = new NameGenerator({ seed: 21 }).randomName(['en_US']);
    const name = new NameGenerator({ seed: 21 }).randomName(['en_US'], { exclude: new Set([taken.toLowerCase()]) });
    expect(name).not.toBe(taken);
    expect(name.toLowerCase()).not.toBe(taken.toLowerCase());
  });

  it('should fall back to the smallest free numeric suffix', () => {
    // Every plain name and the " 2" variant count as taken.
    const exclude = { has: (name: string) => !/ \d+$/u.test(name) || name.endsWith(' 2') } as ReadonlySet<string>;
    const name = new NameGenerator({ seed: 1 }).randomName(['it_IT'], { exclude });
    expect(name).toMatch(/^\D+ 3$/u);
    expect(name.length).toBeLessThanOrEqual(MAX_GENERATED_NAME_LENGTH);
  });

  it('should validate the locales it is given', () => {
    const generator = new NameGenerator();
    expectValidationError(() => generator.randomName([]), 'at least one locale');
    expectValidationError(() => generator.randomName(['zz_ZZ']), '"zz_ZZ"');
    expectValidationError(() => generator.randomName(['__all__', 'en_US']), 'cannot be combined');
  });

  it('should reject a seed that is not a safe integer', () => {
    expectValidationError(() => new NameGenerator({ seed: 1.5 }), 'seed');
    expectValidationError(() => new NameGenerator({ seed: Number.NaN }), 'seed');
  });
});
