/** The nine settings namespaces, in the order the schema lists them. */
export const SETTING_NAMESPACES = [
  'api',
  'company',
  'providers',
  'memory',
  'budget',
  'security',
  'coordination',
  'observability',
  'backup',
] as const;
export type SettingNamespace = (typeof SETTING_NAMESPACES)[number];

/** Wire names of the six setting types (STRING, INTEGER, FLOAT, BOOLEAN, ENUM, JSON). */
export const SETTING_TYPES = ['str', 'int', 'float', 'bool', 'enum', 'json'] as const;
export type SettingType = (typeof SETTING_TYPES)[number];

export const SETTING_LEVELS = ['basic', 'advanced'] as const;
export type SettingLevel = (typeof SETTING_LEVELS)[number];

/** Where a setting's current value came from, highest precedence first. */
export const SETTING_SOURCES = ['db', 'env', 'yaml', 'default'] as const;
export type SettingSource = (typeof SETTING_SOURCES)[number];

/** Longest value a setting stores (the text column takes more; this bounds request bodies and memory). */
export const SETTING_VALUE_MAX_LENGTH = 65_536;

/** What a mask shows in place of a sensitive value. */
export const SENSITIVE_MASK = '********';

/** One runtime-editable setting: its type, default and rules. Values always travel as strings. */
export interface SettingDefinition {
  readonly namespace: SettingNamespace;
  readonly key: string;
  readonly type: SettingType;
  /** The code default as text; null when the setting has no value unless one is given. */
  readonly default: string | null;
  readonly description: string;
  readonly group: string;
  readonly level: SettingLevel;
  /** Encrypted at rest and masked on every read and log line. */
  readonly sensitive: boolean;
  /** Read at boot only: a change is stored and takes effect at the next start. */
  readonly restartRequired: boolean;
  readonly enumValues: readonly string[];
  /** A regular expression a `str` value must match in full. */
  readonly pattern: string | null;
  readonly min: number | null;
  readonly max: number | null;
  /** The YAML path of its value (dotted); `<namespace>.<key>` when not given. */
  readonly yamlPath: string | null;
  /** Older environment variable names still read, after `SYNTHORG_<NAMESPACE>_<KEY>`. */
  readonly envAliases: readonly string[];
  /**
   * A rule beyond type, enum, range and pattern, run on a valid value's text before it is stored;
   * it throws a ValidationError with its own code (unknown action types in a security list).
   */
  readonly validate?: (text: string) => void;
}

/** What a module writes to declare a setting: everything but the identity and type is optional. */
export type SettingDeclaration = Pick<SettingDefinition, 'key' | 'type' | 'default' | 'description'> &
  Partial<Omit<SettingDefinition, 'namespace' | 'key' | 'type' | 'default' | 'description'>>;

/**
 * The definitions of one namespace, with the unset flags filled in; each is checked by
 * `checkDefinition`, so a broken declaration fails at startup, not at the first write.
 */
export function defineSettings(
  namespace: SettingNamespace,
  declarations: readonly SettingDeclaration[],
): SettingDefinition[] {
  return declarations.map((d) =>
    checkDefinition({
      namespace,
      key: d.key,
      type: d.type,
      default: d.default,
      description: d.description,
      group: d.group ?? 'General',
      level: d.level ?? 'basic',
      sensitive: d.sensitive ?? false,
      restartRequired: d.restartRequired ?? false,
      enumValues: d.enumValues ?? [],
      pattern: d.pattern ?? null,
      min: d.min ?? null,
      max: d.max ?? null,
      yamlPath: d.yamlPath ?? null,
      envAliases: d.envAliases ?? [],
      ...(d.validate ? { validate: d.validate } : {}),
    }),
  );
}

/** Keys are lower snake case, so the environment name `SYNTHORG_<NAMESPACE>_<KEY>` is unambiguous. */
const KEY_PATTERN = /^[a-z][a-z0-9_]{0,127}$/;

/**
 * Checks a definition's own consistency: a valid key, enum values only for enums, a range only for
 * numbers, a compilable pattern, and a default that passes the definition's own rules.
 * @throws TypeError naming the setting and the broken rule.
 */
export function checkDefinition(definition: SettingDefinition): SettingDefinition {
  const id = `${definition.namespace}.${definition.key}`;
  const fail = (rule: string): never => {
    throw new TypeError(`setting ${id}: ${rule}`);
  };
  if (!KEY_PATTERN.test(definition.key)) {
    fail('the key must be lower snake case');
  }
  if (!SETTING_TYPES.includes(definition.type)) {
    fail(`unknown type ${String(definition.type)}`);
  }
  if ((definition.type === 'enum') !== definition.enumValues.length > 0) {
    fail('enum values are required for an enum, and only for one');
  }
  const numeric = definition.type === 'int' || definition.type === 'float';
  if (!numeric && (definition.min !== null || definition.max !== null)) {
    fail('min and max apply to int and float settings only');
  }
  if (definition.min !== null && definition.max !== null && definition.min > definition.max) {
    fail('min is greater than max');
  }
  if (definition.pattern !== null) {
    if (definition.type !== 'str') {
      fail('a pattern applies to str settings only');
    }
    try {
      new RegExp(definition.pattern);
    } catch {
      fail('the pattern does not compile');
    }
  }
  if (definition.default !== null) {
    const problem = settingValueProblem(definition, definition.default);
    if (problem) {
      fail(`the default is invalid: ${problem.message}`);
    }
  }
  return Object.freeze({ ...definition, enumValues: Object.freeze([...definition.enumValues]) });
}

/** The rule a value broke: which one (for the error code) and a message that names the setting. */
export interface SettingValueProblem {
  rule: 'type' | 'enum' | 'range' | 'pattern' | 'length';
  message: string;
}

const BOOLEAN_TEXT: Readonly<Record<string, string>> = { true: 'true', false: 'false', '1': 'true', '0': 'false' };
const INT_PATTERN = /^[+-]?\d+$/;
const FLOAT_PATTERN = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Why a value breaks its definition's rules, or null when it is valid. */
export function settingValueProblem(definition: SettingDefinition, raw: string): SettingValueProblem | null {
  const id = `${definition.namespace}.${definition.key}`;
  if (raw.length > SETTING_VALUE_MAX_LENGTH) {
    return { rule: 'length', message: `${id}: the value is longer than ${SETTING_VALUE_MAX_LENGTH} characters` };
  }
  const value = raw.trim();
  switch (definition.type) {
    case 'bool':
      return value.toLowerCase() in BOOLEAN_TEXT
        ? null
        : { rule: 'type', message: `${id}: expected a boolean (true, false, 1 or 0)` };
    case 'int':
    case 'float': {
      const pattern = definition.type === 'int' ? INT_PATTERN : FLOAT_PATTERN;
      const number = Number(value);
      if (
        !pattern.test(value) ||
        !Number.isFinite(number) ||
        (definition.type === 'int' && !Number.isSafeInteger(number))
      ) {
        return { rule: 'type', message: `${id}: expected ${definition.type === 'int' ? 'an integer' : 'a number'}` };
      }
      if (
        (definition.min !== null && number < definition.min) ||
        (definition.max !== null && number > definition.max)
      ) {
        return { rule: 'range', message: `${id}: must be between ${rangeText(definition)}` };
      }
      return null;
    }
    case 'enum':
      return definition.enumValues.includes(value)
        ? null
        : { rule: 'enum', message: `${id}: must be one of ${definition.enumValues.join(', ')}` };
    case 'json':
      try {
        JSON.parse(value);
        return null;
      } catch {
        return { rule: 'type', message: `${id}: expected valid JSON` };
      }
    case 'str':
      if (definition.pattern !== null && !new RegExp(`^(?:${definition.pattern})$`).test(raw)) {
        return { rule: 'pattern', message: `${id}: must match the pattern ${definition.pattern}` };
      }
      return null;
  }
}

function rangeText(definition: SettingDefinition): string {
  return `${definition.min ?? '-∞'} and ${definition.max ?? '∞'}`;
}

/**
 * The canonical text of a valid value: booleans as `true`/`false`, numbers in their shortest form,
 * JSON re-serialised compactly, enums trimmed, strings as given.
 */
export function normaliseSettingValue(definition: SettingDefinition, raw: string): string {
  const value = raw.trim();
  switch (definition.type) {
    case 'bool':
      return BOOLEAN_TEXT[value.toLowerCase()] ?? value;
    case 'int':
    case 'float':
      return String(Number(value));
    case 'json':
      return JSON.stringify(JSON.parse(value));
    case 'enum':
      return value;
    case 'str':
      return raw;
  }
}

/** A value as its type reads it: a string, number, boolean or parsed JSON (null for no value). */
export type SettingValue = string | number | boolean | null | object;

/** Parses a valid, normalised value into its typed form (hot paths read this, never the text). */
export function parseSettingValue(definition: SettingDefinition, text: string | null): SettingValue {
  if (text === null) {
    return null;
  }
  switch (definition.type) {
    case 'bool':
      return text === 'true';
    case 'int':
    case 'float':
      return Number(text);
    case 'json':
      return JSON.parse(text) as SettingValue;
    case 'enum':
    case 'str':
      return text;
  }
}

/** `namespace.key`: the one identifier of a setting in maps, events and messages. */
export function settingId(namespace: string, key: string): string {
  return `${namespace}.${key}`;
}
