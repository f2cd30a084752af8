import { ErrorCode, ValidationError } from '../errors';

/**
 * The personality of an agent: a flat JSON object stored and served verbatim, so its keys use the
 * snake_case wire names. Every field has a default, so `{}` is a valid (all-default) personality.
 *
 * `PERSONALITY_FIELDS` is the single description of the fields: validation, defaults and the JSON
 * Schema are all derived from it.
 */

export const PERSONALITY_LEVELS = ['low', 'medium', 'high'] as const;
export type PersonalityLevel = (typeof PERSONALITY_LEVELS)[number];

export const DECISION_MAKING_STYLES = ['analytical', 'intuitive', 'consultative', 'directive'] as const;
export type DecisionMakingStyle = (typeof DECISION_MAKING_STYLES)[number];

export const COLLABORATION_PREFERENCES = ['independent', 'pair', 'team'] as const;
export type CollaborationPreference = (typeof COLLABORATION_PREFERENCES)[number];

export const VERBOSITY_LEVELS = ['terse', 'balanced', 'verbose'] as const;
export type VerbosityLevel = (typeof VERBOSITY_LEVELS)[number];

export const CONFLICT_APPROACHES = ['avoid', 'accommodate', 'compete', 'compromise', 'collaborate'] as const;
export type ConflictApproach = (typeof CONFLICT_APPROACHES)[number];

export interface PersonalityConfig {
  traits: string[];
  communication_style: string;
  risk_tolerance: PersonalityLevel;
  creativity: PersonalityLevel;
  description: string;
  openness: number;
  conscientiousness: number;
  extraversion: number;
  agreeableness: number;
  stress_response: number;
  decision_making: DecisionMakingStyle;
  collaboration: CollaborationPreference;
  verbosity: VerbosityLevel;
  conflict_approach: ConflictApproach;
}

export type PersonalityFieldName = keyof PersonalityConfig;

export interface StringFieldSpec {
  readonly name: PersonalityFieldName;
  readonly kind: 'string';
  /** Counted in Unicode code points, as JSON Schema does. */
  readonly maxLength: number;
  readonly default: string;
  readonly description: string;
}

export interface NumberFieldSpec {
  readonly name: PersonalityFieldName;
  readonly kind: 'number';
  /** Inclusive bounds; NaN and the infinities are never accepted. */
  readonly min: number;
  readonly max: number;
  readonly default: number;
  readonly description: string;
}

export interface EnumFieldSpec<V extends string = string> {
  readonly name: PersonalityFieldName;
  readonly kind: 'enum';
  readonly values: readonly V[];
  readonly default: V;
  readonly description: string;
}

export interface StringListFieldSpec {
  readonly name: PersonalityFieldName;
  readonly kind: 'string_list';
  readonly maxItems: number;
  /** Bounds on each item's length, in Unicode code points. */
  readonly itemMinLength: number;
  readonly itemMaxLength: number;
  readonly default: readonly string[];
  readonly description: string;
}

export type PersonalityFieldSpec = StringFieldSpec | NumberFieldSpec | EnumFieldSpec | StringListFieldSpec;

/** The shape a field's row must have, chosen from the field's value type (the row's name is its key). */
type FieldRowFor<T> = [T] extends [readonly string[]]
  ? Omit<StringListFieldSpec, 'name'>
  : [T] extends [number]
    ? Omit<NumberFieldSpec, 'name'>
    : [string] extends [T]
      ? Omit<StringFieldSpec, 'name'>
      : [T] extends [string]
        ? Omit<EnumFieldSpec<T>, 'name'>
        : never;

const unitInterval = (description: string): Omit<NumberFieldSpec, 'name'> => ({
  kind: 'number',
  min: 0,
  max: 1,
  default: 0.5,
  description,
});

/**
 * Keyed by field so the compiler checks that every field of PersonalityConfig has exactly one row
 * whose kind and default fit the field's type. Key order is the canonical field order.
 */
const FIELD_ROWS: { readonly [K in PersonalityFieldName]: FieldRowFor<PersonalityConfig[K]> } = {
  traits: {
    kind: 'string_list',
    maxItems: 50,
    itemMinLength: 1,
    itemMaxLength: 100,
    default: [],
    description: 'Short adjectives that characterise the agent.',
  },
  communication_style: {
    kind: 'string',
    maxLength: 100,
    default: 'neutral',
    description: 'Free-form label for the tone the agent writes in.',
  },
  risk_tolerance: {
    kind: 'enum',
    values: PERSONALITY_LEVELS,
    default: 'medium',
    description: 'How readily the agent accepts uncertain or risky options.',
  },
  creativity: {
    kind: 'enum',
    values: PERSONALITY_LEVELS,
    default: 'medium',
    description: 'How far the agent strays from conventional solutions.',
  },
  description: {
    kind: 'string',
    maxLength: 500,
    default: '',
    description: 'Prose summary of the personality, shown to people and to the model.',
  },
  openness: unitInterval('Openness to new ideas and experience (0 = conventional, 1 = exploratory).'),
  conscientiousness: unitInterval('Care, order and thoroughness (0 = loose, 1 = meticulous).'),
  extraversion: unitInterval('Drive to engage and communicate with others (0 = reserved, 1 = outgoing).'),
  agreeableness: unitInterval('Inclination to cooperate and accommodate (0 = challenging, 1 = accommodating).'),
  stress_response: unitInterval('Composure under pressure (0 = easily rattled, 1 = unflappable).'),
  decision_making: {
    kind: 'enum',
    values: DECISION_MAKING_STYLES,
    default: 'consultative',
    description: 'How the agent usually reaches decisions.',
  },
  collaboration: {
    kind: 'enum',
    values: COLLABORATION_PREFERENCES,
    default: 'team',
    description: 'The working arrangement the agent prefers.',
  },
  verbosity: {
    kind: 'enum',
    values: VERBOSITY_LEVELS,
    default: 'balanced',
    description: 'How much detail the agent puts in its output.',
  },
  conflict_approach: {
    kind: 'enum',
    values: CONFLICT_APPROACHES,
    default: 'collaborate',
    description: 'How the agent handles disagreement.',
  },
};

/** One row per field, in canonical order: the single source for validation, defaults and schema. */
export const PERSONALITY_FIELDS: ReadonlyArray<PersonalityFieldSpec> = Object.freeze(
  (Object.keys(FIELD_ROWS) as PersonalityFieldName[]).map((name) => {
    const row = FIELD_ROWS[name];
    const spec = { name, ...row } as PersonalityFieldSpec;
    if (spec.kind === 'enum') {
      return Object.freeze({ ...spec, values: Object.freeze([...spec.values]) });
    }
    if (spec.kind === 'string_list') {
      return Object.freeze({ ...spec, default: Object.freeze([...spec.default]) });
    }
    return Object.freeze(spec);
  }),
);

const FIELDS_BY_NAME: ReadonlyMap<string, PersonalityFieldSpec> = new Map(PERSONALITY_FIELDS.map((f) => [f.name, f]));

export function isPersonalityFieldName(key: string): key is PersonalityFieldName {
  return FIELDS_BY_NAME.has(key);
}

function defaultValue(spec: PersonalityFieldSpec): unknown {
  return spec.kind === 'string_list' ? [...spec.default] : spec.default;
}

/** Every field at its default; frozen (copy it, or call normalizePersonality({}), to get a mutable one). */
export const DEFAULT_PERSONALITY: Readonly<PersonalityConfig> = freezePersonality(
  Object.fromEntries(PERSONALITY_FIELDS.map((f) => [f.name, defaultValue(f)])) as unknown as PersonalityConfig,
);

export interface NormalizePersonalityOptions {
  /** Only complete personalities (missing fields filled with defaults) are produced. */
  partial?: false;
}

/**
 * Validates a plain object against PERSONALITY_FIELDS and returns a new, complete PersonalityConfig
 * with keys in canonical order and missing fields set to their defaults. A key whose value is
 * `undefined` counts as missing; `null` is a wrong type. Unknown keys are rejected. All problems are
 * reported together in one ValidationError, each prefixed by the field it concerns.
 */
export function normalizePersonality(input: unknown, _opts: NormalizePersonalityOptions = {}): PersonalityConfig {
  if (!isPlainObject(input)) {
    throw new ValidationError('personality: must be an object', ErrorCode.RequestValidationError);
  }
  const problems: string[] = [];
  for (const key of Object.keys(input)) {
    if (!FIELDS_BY_NAME.has(key)) {
      problems.push(`${key}: unknown personality field`);
    }
  }
  const out: Record<string, unknown> = {};
  for (const spec of PERSONALITY_FIELDS) {
    const raw = Object.hasOwn(input, spec.name) ? input[spec.name] : undefined;
    if (raw === undefined) {
      out[spec.name] = defaultValue(spec);
      continue;
    }
    const result = checkValue(spec, raw);
    if (typeof result === 'string') {
      problems.push(result);
    } else {
      out[spec.name] = result.value;
    }
  }
  if (problems.length > 0) {
    throw new ValidationError(problems.join('; '), ErrorCode.RequestValidationError);
  }
  return out as unknown as PersonalityConfig;
}

/** The accepted value (copied where mutable), or the message saying why it was refused. */
function checkValue(spec: PersonalityFieldSpec, raw: unknown): { value: unknown } | string {
  switch (spec.kind) {
    case 'string':
      return typeof raw === 'string' && codePoints(raw) <= spec.maxLength
        ? { value: raw }
        : `${spec.name}: must be a string of at most ${spec.maxLength} characters`;
    case 'number':
      return typeof raw === 'number' && Number.isFinite(raw) && raw >= spec.min && raw <= spec.max
        ? { value: raw }
        : `${spec.name}: must be a number between ${spec.min} and ${spec.max}`;
    case 'enum':
      return typeof raw === 'string' && spec.values.includes(raw)
        ? { value: raw }
        : `${spec.name}: must be one of ${spec.values.join(', ')}`;
    case 'string_list': {
      if (!Array.isArray(raw) || raw.length > spec.maxItems) {
        return `${spec.name}: must be a list of at most ${spec.maxItems} strings`;
      }
      const items: unknown[] = raw;
      const bad = items.findIndex(
        (item) =>
          typeof item !== 'string' || codePoints(item) < spec.itemMinLength || codePoints(item) > spec.itemMaxLength,
      );
      return bad === -1
        ? { value: [...(items as string[])] }
        : `${spec.name}[${bad}]: must be a string of ${spec.itemMinLength} to ${spec.itemMaxLength} characters`;
    }
  }
}

/** JSON Schema (draft 2020-12) of PersonalityConfig; a fresh object on every call. */
export function personalityJsonSchema(): Record<string, unknown> {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const spec of PERSONALITY_FIELDS) {
    properties[spec.name] = fieldSchema(spec);
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'PersonalityConfig',
    description: 'Personality of an agent. Every field is optional; missing fields take their default.',
    type: 'object',
    additionalProperties: false,
    properties,
  };
}

function fieldSchema(spec: PersonalityFieldSpec): Record<string, unknown> {
  switch (spec.kind) {
    case 'string':
      return { type: 'string', maxLength: spec.maxLength, default: spec.default, description: spec.description };
    case 'number':
      return {
        type: 'number',
        minimum: spec.min,
        maximum: spec.max,
        default: spec.default,
        description: spec.description,
      };
    case 'enum':
      return { type: 'string', enum: [...spec.values], default: spec.default, description: spec.description };
    case 'string_list':
      return {
        type: 'array',
        items: { type: 'string', minLength: spec.itemMinLength, maxLength: spec.itemMaxLength },
        maxItems: spec.maxItems,
        default: [...spec.default],
        description: spec.description,
      };
  }
}

/** Names of personality presets (built-in and custom): a lower-case letter, then a-z, 0-9 or _. */
export const PRESET_NAME_PATTERN = /^[a-z][a-z0-9_]{0,99}$/;

/** Trims and lower-cases a preset name; throws a ValidationError when the result is not a valid name. */
export function normalizePresetName(raw: string): string {
  const name = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (!PRESET_NAME_PATTERN.test(name)) {
    throw new ValidationError(
      'name: a preset name must start with a letter and contain only letters, digits and underscores (at most 100 characters)',
      ErrorCode.RequestValidationError,
    );
  }
  return name;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return false;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) {
    count++;
  }
  return count;
}

function freezePersonality<T extends PersonalityConfig>(config: T): Readonly<T> {
  Object.freeze(config.traits);
  return Object.freeze(config);
}
