import { createHash, randomInt } from 'node:crypto';

import { ErrorCode, ValidationError } from '@app/domain';
import type { Faker } from '@faker-js/faker';

import {
  ALL_LOCALES_SENTINEL,
  AVAILABLE_NAME_LOCALES,
  type FakerLocaleName,
  fakerLocaleFor,
  normalizeNameLocales,
} from './name-locales';

/** Generated names never exceed this many UTF-16 code units. */
export const MAX_GENERATED_NAME_LENGTH = 128;

/** Fresh draws tried before a taken name gets a numeric suffix. */
const MAX_ATTEMPTS = 20;

/** Draws tried for one name when faker's data yields entries outside the Latin script. */
const MAX_DATA_REDRAWS = 100;

/**
 * Latin letters with any combining accents, apostrophes (including the turned-comma forms Uzbek
 * uses), dots and hyphens, in words separated by single spaces. A few faker entries carry stray
 * characters (a Greek epsilon in a Ghanaian surname, a mis-encoded Dutch first name with a control
 * character); names containing them are redrawn.
 */
const LATIN_SCRIPT_NAME = /^[\p{Script=Latin}\p{M}'’‘ʻʼ.-]+(?: [\p{Script=Latin}\p{M}'’‘ʻʼ.-]+)*$/u;

export interface NameGeneratorOptions {
  /** Makes the sequence of names reproducible; without it every generator is random. */
  seed?: number;
}

export interface RandomNameOptions {
  /** Lower-cased names already taken; the returned name (lower-cased) is never one of them. */
  exclude?: ReadonlySet<string>;
}

type FakerClass = new (options: { locale: Faker['rawDefinitions']; seed?: number }) => Faker;

const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * The ready-made faker instance of one locale. Each locale is its own small module, loaded on first
 * use: importing faker's main entry loads every locale at once and costs about 150 ms of startup.
 */
function loadLocale(locale: FakerLocaleName): Faker {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy, synchronous load of one locale module
  const loaded = require(`@faker-js/faker/locale/${locale}`) as { faker: Faker };
  return loaded.faker;
}

/**
 * Random human names ("First Last") from the name-locale catalogue. Each generator keeps its own faker
 * instance per locale, so seeding one generator never disturbs another.
 */
export class NameGenerator {
  private readonly seed: number | undefined;
  private readonly instances = new Map<FakerLocaleName, Faker>();
  private draws = 0;

  constructor(options: NameGeneratorOptions = {}) {
    if (options.seed !== undefined && !Number.isSafeInteger(options.seed)) {
      throw new ValidationError('Name generator seed must be a safe integer', ErrorCode.RequestValidationError);
    }
    this.seed = options.seed;
  }

  /**
   * A name from a locale picked uniformly from `locales` (the catalogue codes, or the sentinel alone
   * for every catalogue locale). A name in `exclude` is redrawn a bounded number of times; after that
   * the last draw gets the smallest free numeric suffix (" 2", " 3", ...).
   */
  randomName(locales: readonly string[], options: RandomNameOptions = {}): string {
    const normalized = normalizeNameLocales(locales);
    const codes = normalized[0] === ALL_LOCALES_SENTINEL ? AVAILABLE_NAME_LOCALES : normalized;
    const exclude = options.exclude ?? NO_NAMES;
    let name = '';
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      name = this.draw(codes[this.pickIndex(codes.length)]);
      if (!exclude.has(name.toLowerCase())) {
        return name;
      }
    }
    for (let suffix = 2; ; suffix += 1) {
      const tail = ` ${suffix}`;
      const candidate = clip(name, MAX_GENERATED_NAME_LENGTH - tail.length) + tail;
      if (!exclude.has(candidate.toLowerCase())) {
        return candidate;
      }
    }
  }

  private draw(code: string): string {
    const faker = this.instanceFor(fakerLocaleFor(code));
    for (let redraw = 0; redraw < MAX_DATA_REDRAWS; redraw += 1) {
      const sex = faker.person.sexType();
      const name = clip(
        `${faker.person.firstName(sex)} ${faker.person.lastName(sex)}`.normalize('NFC').replace(/\s+/gu, ' ').trim(),
        MAX_GENERATED_NAME_LENGTH,
      );
      if (isLatinScriptName(name)) {
        return name;
      }
    }
    throw new Error(`No usable name found in the faker data for ${code}`);
  }

  private instanceFor(locale: FakerLocaleName): Faker {
    let instance = this.instances.get(locale);
    if (instance === undefined) {
      // A private instance built from the shared one's class and locale data keeps this generator's
      // random state to itself.
      const shared = loadLocale(locale);
      const Instance = shared.constructor as FakerClass;
      instance = new Instance({
        locale: shared.rawDefinitions,
        ...(this.seed === undefined ? {} : { seed: derive(this.seed, `locale:${locale}`) }),
      });
      this.instances.set(locale, instance);
    }
    return instance;
  }

  private pickIndex(count: number): number {
    if (count === 1) {
      return 0;
    }
    if (this.seed === undefined) {
      return randomInt(count);
    }
    const draw = this.draws;
    this.draws += 1;
    return Math.floor((derive(this.seed, `pick:${draw}`) / 2 ** 32) * count);
  }
}

/** Whether `name` is one or more space-separated words of Latin letters, accents and name punctuation. */
export function isLatinScriptName(name: string): boolean {
  return LATIN_SCRIPT_NAME.test(name);
}

/** A 32-bit value determined by the seed and a label. */
function derive(seed: number, label: string): number {
  return createHash('sha256').update(`${seed}:${label}`).digest().readUInt32BE(0);
}

/** `text` cut to at most `max` code units without splitting a surrogate pair or leaving a trailing space. */
function clip(text: string, max: number): string {
  if (text.length <= max) {
    return text;
  }
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) {
    end -= 1;
  }
  return text.slice(0, end).trimEnd();
}
