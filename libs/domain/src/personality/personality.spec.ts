import { AppError, ErrorCode, ValidationError } from '../errors';
import {
  BUILTIN_PERSONALITY_PRESETS,
  DEFAULT_PERSONALITY_PRESET,
  builtinPreset,
  isBuiltinPreset,
} from './builtin-presets';
import {
  CONFLICT_APPROACHES,
  DEFAULT_PERSONALITY,
  PERSONALITY_FIELDS,
  PRESET_NAME_PATTERN,
  normalizePersonality,
  normalizePresetName,
  personalityJsonSchema,
} from './personality';

const FIELD_ORDER = [
  'traits',
  'communication_style',
  'risk_tolerance',
  'creativity',
  'description',
  'openness',
  'conscientiousness',
  'extraversion',
  'agreeableness',
  'stress_response',
  'decision_making',
  'collaboration',
  'verbosity',
  'conflict_approach',
];

/** Runs fn and returns the ValidationError it throws (failing the test if it throws anything else). */
function validationErrorOf(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const err = error as ValidationError;
    expect(err.code).toBe(ErrorCode.RequestValidationError);
    expect(err.httpStatus).toBe(400);
    return err;
  }
  throw new Error('expected a ValidationError');
}

describe('PERSONALITY_FIELDS', () => {
  it('should list every field once, in canonical order', () => {
    expect(PERSONALITY_FIELDS.map((f) => f.name)).toEqual(FIELD_ORDER);
  });

  it('should describe every field in one line', () => {
    for (const field of PERSONALITY_FIELDS) {
      expect(field.description).toMatch(/\w/);
      expect(field.description).not.toContain('\n');
    }
  });

  it('should be frozen', () => {
    expect(Object.isFrozen(PERSONALITY_FIELDS)).toBe(true);
    for (const field of PERSONALITY_FIELDS) {
      expect(Object.isFrozen(field)).toBe(true);
    }
  });
});

describe('normalizePersonality', () => {
  it('should fill every default from an empty object', () => {
    expect(normalizePersonality({})).toEqual({
      traits: [],
      communication_style: 'neutral',
      risk_tolerance: 'medium',
      creativity: 'medium',
      description: '',
      openness: 0.5,
      conscientiousness: 0.5,
      extraversion: 0.5,
      agreeableness: 0.5,
      stress_response: 0.5,
      decision_making: 'consultative',
      collaboration: 'team',
      verbosity: 'balanced',
      conflict_approach: 'collaborate',
    });
    expect(normalizePersonality({})).toEqual(DEFAULT_PERSONALITY);
  });

  it('should keep given values, fill the rest and order keys canonically', () => {
    const result = normalizePersonality({ verbosity: 'terse', openness: 1, traits: ['calm'], risk_tolerance: 'low' });
    expect(Object.keys(result)).toEqual(FIELD_ORDER);
    expect(result).toMatchObject({
      verbosity: 'terse',
      openness: 1,
      traits: ['calm'],
      risk_tolerance: 'low',
      creativity: 'medium',
      agreeableness: 0.5,
    });
  });

  it('should accept the bounds of every range', () => {
    expect(normalizePersonality({ openness: 0, stress_response: 1 })).toMatchObject({
      openness: 0,
      stress_response: 1,
    });
    const maxTraits = Array.from({ length: 50 }, (_, i) => `t${i}`.padEnd(100, 'x'));
    expect(normalizePersonality({ traits: maxTraits }).traits).toHaveLength(50);
    expect(normalizePersonality({ description: 'd'.repeat(500) }).description).toHaveLength(500);
    expect(normalizePersonality({ communication_style: 's'.repeat(100) }).communication_style).toHaveLength(100);
  });

  it('should treat undefined as missing', () => {
    expect(normalizePersonality({ openness: undefined }).openness).toBe(0.5);
  });

  it('should return a new object that does not share arrays with its input or the defaults', () => {
    const traits = ['kind'];
    const input = { traits };
    const result = normalizePersonality(input);
    expect(result).not.toBe(input);
    expect(result.traits).not.toBe(traits);
    const fromDefaults = normalizePersonality({});
    fromDefaults.traits.push('mutable');
    expect(DEFAULT_PERSONALITY.traits).toEqual([]);
  });

  it('should be idempotent', () => {
    const once = normalizePersonality({ creativity: 'high', traits: ['a', 'b'] });
    expect(normalizePersonality(once)).toEqual(once);
  });

  it('should reject unknown keys, naming them', () => {
    expect(validationErrorOf(() => normalizePersonality({ charisma: 0.9 })).message).toBe(
      'charisma: unknown personality field',
    );
  });

  it.each([
    [{ openness: 1.01 }, 'openness: must be a number between 0 and 1'],
    [{ agreeableness: -0.1 }, 'agreeableness: must be a number between 0 and 1'],
    [{ extraversion: Number.NaN }, 'extraversion: must be a number between 0 and 1'],
    [{ conscientiousness: Number.POSITIVE_INFINITY }, 'conscientiousness: must be a number between 0 and 1'],
    [{ stress_response: '0.5' }, 'stress_response: must be a number between 0 and 1'],
  ])('should reject an out-of-range or non-numeric score %p', (input, message) => {
    expect(validationErrorOf(() => normalizePersonality(input)).message).toBe(message);
  });

  it.each([
    [{ risk_tolerance: 'extreme' }, 'risk_tolerance: must be one of low, medium, high'],
    [{ creativity: 'HIGH' }, 'creativity: must be one of low, medium, high'],
    [{ decision_making: 'random' }, 'decision_making: must be one of analytical, intuitive, consultative, directive'],
    [{ collaboration: 3 }, 'collaboration: must be one of independent, pair, team'],
    [{ verbosity: null }, 'verbosity: must be one of terse, balanced, verbose'],
    [{ conflict_approach: 'ignore' }, `conflict_approach: must be one of ${CONFLICT_APPROACHES.join(', ')}`],
  ])('should reject a bad enum value %p', (input, message) => {
    expect(validationErrorOf(() => normalizePersonality(input)).message).toBe(message);
  });

  it.each([
    [{ description: 'x'.repeat(501) }, 'description: must be a string of at most 500 characters'],
    [{ communication_style: 'x'.repeat(101) }, 'communication_style: must be a string of at most 100 characters'],
    [{ communication_style: 42 }, 'communication_style: must be a string of at most 100 characters'],
  ])('should reject a bad string %p', (input, message) => {
    expect(validationErrorOf(() => normalizePersonality(input)).message).toBe(message);
  });

  it('should count characters as code points', () => {
    // 100 emoji are 200 UTF-16 units but 100 characters.
    expect(normalizePersonality({ communication_style: '🙂'.repeat(100) }).communication_style).toBe('🙂'.repeat(100));
  });

  it.each([
    [{ traits: Array.from({ length: 51 }, () => 'x') }, 'traits: must be a list of at most 50 strings'],
    [{ traits: 'bold' }, 'traits: must be a list of at most 50 strings'],
    [{ traits: ['ok', ''] }, 'traits[1]: must be a string of 1 to 100 characters'],
    [{ traits: ['x'.repeat(101)] }, 'traits[0]: must be a string of 1 to 100 characters'],
    [{ traits: ['ok', 7] }, 'traits[1]: must be a string of 1 to 100 characters'],
  ])('should reject a bad traits list %#', (input, message) => {
    expect(validationErrorOf(() => normalizePersonality(input)).message).toBe(message);
  });

  it('should report every problem at once', () => {
    const { message } = validationErrorOf(() => normalizePersonality({ bogus: 1, openness: 2, verbosity: 'x' }));
    expect(message).toContain('bogus:');
    expect(message).toContain('openness:');
    expect(message).toContain('verbosity:');
  });

  it.each([[null], [undefined], [[]], [['openness']], ['openness'], [42], [true], [new Date()], [new Map()]])(
    'should reject the non-object input %p',
    (input) => {
      expect(validationErrorOf(() => normalizePersonality(input)).message).toBe('personality: must be an object');
    },
  );

  it('should accept a null-prototype object and reject an own __proto__ key', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { openness: 0.2 });
    expect(normalizePersonality(bare).openness).toBe(0.2);
    const parsed: unknown = JSON.parse('{"__proto__": {"openness": 0.1}}');
    expect(validationErrorOf(() => normalizePersonality(parsed)).message).toBe('__proto__: unknown personality field');
  });

  it('should be an AppError so the HTTP layer renders it', () => {
    expect(validationErrorOf(() => normalizePersonality(null))).toBeInstanceOf(AppError);
  });
});

describe('DEFAULT_PERSONALITY', () => {
  it('should be frozen, including its traits', () => {
    expect(Object.isFrozen(DEFAULT_PERSONALITY)).toBe(true);
    expect(Object.isFrozen(DEFAULT_PERSONALITY.traits)).toBe(true);
  });
});

describe('personalityJsonSchema', () => {
  const schema = personalityJsonSchema() as {
    $schema: string;
    title: string;
    type: string;
    additionalProperties: boolean;
    properties: Record<string, Record<string, unknown>>;
  };

  it('should be a closed draft 2020-12 object schema', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.title).toBe('PersonalityConfig');
    expect(schema.type).toBe('object');
    expect(schema.additionalProperties).toBe(false);
  });

  it('should list every field with its default and description', () => {
    expect(Object.keys(schema.properties)).toEqual(FIELD_ORDER);
    for (const name of FIELD_ORDER) {
      const property = schema.properties[name];
      expect(property?.default).toEqual(DEFAULT_PERSONALITY[name as keyof typeof DEFAULT_PERSONALITY]);
      expect(property?.description).toMatch(/\w/);
    }
  });

  it('should carry the constraints of each kind', () => {
    expect(schema.properties.traits).toMatchObject({
      type: 'array',
      maxItems: 50,
      items: { type: 'string', minLength: 1, maxLength: 100 },
    });
    expect(schema.properties.communication_style).toMatchObject({ type: 'string', maxLength: 100 });
    expect(schema.properties.description).toMatchObject({ type: 'string', maxLength: 500 });
    expect(schema.properties.openness).toMatchObject({ type: 'number', minimum: 0, maximum: 1 });
    expect(schema.properties.risk_tolerance).toMatchObject({ type: 'string', enum: ['low', 'medium', 'high'] });
    expect(schema.properties.decision_making?.enum).toEqual(['analytical', 'intuitive', 'consultative', 'directive']);
    expect(schema.properties.collaboration?.enum).toEqual(['independent', 'pair', 'team']);
    expect(schema.properties.verbosity?.enum).toEqual(['terse', 'balanced', 'verbose']);
    expect(schema.properties.conflict_approach?.enum).toEqual([...CONFLICT_APPROACHES]);
  });

  it('should return a fresh object each call', () => {
    const a = personalityJsonSchema() as { properties: { traits: { default: string[] } } };
    a.properties.traits.default.push('changed');
    expect(personalityJsonSchema()).toEqual(schema);
  });
});

describe('preset names', () => {
  it('should trim and lower-case a valid name', () => {
    expect(normalizePresetName('  Calm_Reviewer2 ')).toBe('calm_reviewer2');
    expect(normalizePresetName('a')).toBe('a');
    expect(normalizePresetName('a'.repeat(100))).toBe('a'.repeat(100));
  });

  it.each([[''], ['   '], ['2fast'], ['_hidden'], ['with-dash'], ['with space'], ['naïve'], ['a'.repeat(101)]])(
    'should reject %p',
    (raw) => {
      expect(validationErrorOf(() => normalizePresetName(raw)).message).toMatch(/^name: /);
    },
  );

  it('should expose the name pattern', () => {
    expect(PRESET_NAME_PATTERN.test('ok_name')).toBe(true);
    expect(PRESET_NAME_PATTERN.test('Not_ok')).toBe(false);
  });
});

describe('built-in presets', () => {
  it('should have 20 uniquely named presets with valid names', () => {
    expect(BUILTIN_PERSONALITY_PRESETS).toHaveLength(20);
    const names = BUILTIN_PERSONALITY_PRESETS.map((p) => p.name);
    expect(new Set(names).size).toBe(20);
    for (const name of names) {
      expect(normalizePresetName(name)).toBe(name);
    }
    expect(names[0]).toBe('visionary_leader');
    expect(names[19]).toBe('systems_thinker');
  });

  it('should hold only valid, complete personalities described by the preset description', () => {
    for (const preset of BUILTIN_PERSONALITY_PRESETS) {
      expect(normalizePersonality(preset.personality)).toEqual(preset.personality);
      expect(Object.keys(preset.personality)).toEqual(FIELD_ORDER);
      expect(preset.description).toMatch(/\w/);
      expect(preset.personality.description).toBe(preset.description);
      expect(preset.personality.traits).toHaveLength(3);
    }
  });

  it('should be deeply frozen', () => {
    expect(Object.isFrozen(BUILTIN_PERSONALITY_PRESETS)).toBe(true);
    for (const preset of BUILTIN_PERSONALITY_PRESETS) {
      expect(Object.isFrozen(preset)).toBe(true);
      expect(Object.isFrozen(preset.personality)).toBe(true);
      expect(Object.isFrozen(preset.personality.traits)).toBe(true);
    }
  });

  it('should carry the documented values', () => {
    expect(builtinPreset('pragmatic_builder')?.personality).toMatchObject({
      traits: ['practical', 'reliable', 'detail-oriented'],
      communication_style: 'concise',
      risk_tolerance: 'medium',
      creativity: 'medium',
      openness: 0.5,
      conscientiousness: 0.85,
      extraversion: 0.45,
      agreeableness: 0.6,
      stress_response: 0.7,
      decision_making: 'analytical',
      collaboration: 'pair',
      verbosity: 'terse',
      conflict_approach: 'compromise',
    });
    expect(builtinPreset('security_sentinel')?.personality).toMatchObject({
      risk_tolerance: 'low',
      agreeableness: 0.4,
      collaboration: 'independent',
      conflict_approach: 'compete',
    });
  });

  it('should look presets up by name', () => {
    expect(isBuiltinPreset(DEFAULT_PERSONALITY_PRESET)).toBe(true);
    expect(builtinPreset(DEFAULT_PERSONALITY_PRESET)?.name).toBe('pragmatic_builder');
    expect(builtinPreset(' Team_Diplomat ')?.name).toBe('team_diplomat');
    expect(builtinPreset('no_such_preset')).toBeUndefined();
    expect(isBuiltinPreset('no_such_preset')).toBe(false);
  });
});
