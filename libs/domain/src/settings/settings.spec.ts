import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-codes';
import {
  defineSettings,
  normaliseSettingValue,
  parseSettingValue,
  type SettingDeclaration,
} from './setting-definition';
import { resolveSetting, settingEnvName } from './setting-resolution';
import { SettingDefinitions, validateSettingValue } from './settings-registry';

const [port, ratio, flag, level, currency, list] = defineSettings('api', [
  { key: 'port', type: 'int', default: '3001', description: 'p', min: 1, max: 65535 },
  { key: 'ratio', type: 'float', default: '1.0', description: 'r', min: 0.01, max: 1 },
  { key: 'flag', type: 'bool', default: 'false', description: 'f' },
  { key: 'level', type: 'enum', default: 'info', description: 'l', enumValues: ['debug', 'info'] },
  { key: 'currency', type: 'str', default: 'EUR', description: 'c', pattern: '[A-Z]{3}' },
  { key: 'list', type: 'json', default: '[]', description: 'j', yamlPath: 'server.list' },
]);

function codeOf(work: () => unknown): number | null {
  try {
    work();
    return null;
  } catch (error) {
    return error instanceof AppError ? error.code : -1;
  }
}

describe('setting definitions', () => {
  it('should fill the unset flags when a namespace is declared', () => {
    expect(port).toMatchObject({ namespace: 'api', level: 'basic', sensitive: false, restartRequired: false });
  });

  it.each<[string, SettingDeclaration]>([
    ['an enum without values', { key: 'x', type: 'enum', default: null, description: '' }],
    ['values on a non-enum', { key: 'x', type: 'str', default: null, description: '', enumValues: ['a'] }],
    ['a range on a string', { key: 'x', type: 'str', default: null, description: '', min: 1 }],
    ['min above max', { key: 'x', type: 'int', default: null, description: '', min: 5, max: 1 }],
    ['a pattern on an int', { key: 'x', type: 'int', default: null, description: '', pattern: '\\d' }],
    ['a default out of range', { key: 'x', type: 'int', default: '0', description: '', min: 1 }],
    ['a key that is not snake case', { key: 'Bad-Key', type: 'str', default: null, description: '' }],
  ])('should refuse %s', (_name, declaration) => {
    expect(() => defineSettings('api', [declaration])).toThrow(TypeError);
  });

  it('should refuse a key declared twice', () => {
    const registry = new SettingDefinitions();
    registry.declare([port]);
    expect(() => registry.declare([port])).toThrow('declared twice');
  });

  it('should answer 3040 for an unknown namespace and 3041 for an unknown key', () => {
    const registry = new SettingDefinitions();
    registry.declare([port]);
    expect(codeOf(() => registry.get('nope', 'port'))).toBe(ErrorCode.SettingNamespaceNotFound);
    expect(codeOf(() => registry.namespace('nope'))).toBe(ErrorCode.SettingNamespaceNotFound);
    expect(codeOf(() => registry.get('api', 'nope'))).toBe(ErrorCode.SettingNotFound);
    expect(registry.namespace('budget')).toEqual([]);
  });
});

describe('setting validation', () => {
  it.each([
    [port, 'abc', ErrorCode.SettingTypeInvalid],
    [port, '1.5', ErrorCode.SettingTypeInvalid],
    [port, '0', ErrorCode.SettingOutOfRange],
    [port, '70000', ErrorCode.SettingOutOfRange],
    [ratio, 'NaN', ErrorCode.SettingTypeInvalid],
    [ratio, '0.001', ErrorCode.SettingOutOfRange],
    [flag, 'yes', ErrorCode.SettingTypeInvalid],
    [level, 'trace', ErrorCode.SettingEnumInvalid],
    [currency, 'eur', ErrorCode.SettingPatternMismatch],
    [currency, 'EURO', ErrorCode.SettingPatternMismatch],
    [list, '[1,', ErrorCode.SettingTypeInvalid],
    [list, 'x'.repeat(70_000), ErrorCode.SettingValueTooLong],
  ])('should refuse %# with its rule code', (definition, value, code) => {
    expect(codeOf(() => validateSettingValue(definition, value))).toBe(code);
  });

  it('should name the setting and the rule in the message', () => {
    expect(() => validateSettingValue(port, '0')).toThrow('api.port: must be between 1 and 65535');
  });

  it.each([
    [flag, '1', 'true'],
    [flag, 'FALSE', 'false'],
    [flag, '0', 'false'],
    [port, ' 080 ', '80'],
    [ratio, '.5', '0.5'],
    [list, '[ 1, 2 ]', '[1,2]'],
    [currency, 'USD', 'USD'],
  ])('should normalise %# to its canonical text', (definition, raw, expected) => {
    expect(validateSettingValue(definition, raw)).toBe(expected);
    expect(normaliseSettingValue(definition, raw)).toBe(expected);
  });

  it('should parse values into their types', () => {
    expect(parseSettingValue(flag, 'true')).toBe(true);
    expect(parseSettingValue(port, '80')).toBe(80);
    expect(parseSettingValue(list, '[1]')).toEqual([1]);
    expect(parseSettingValue(level, 'info')).toBe('info');
    expect(parseSettingValue(level, null)).toBeNull();
  });
});

describe('setting resolution', () => {
  const env = { SYNTHORG_API_PORT: '4000' };
  const yaml = { api: { port: 5000 }, server: { list: ['a'] } };

  it('should name the environment variable SYNTHORG_<NAMESPACE>_<KEY>', () => {
    expect(settingEnvName(port)).toBe('SYNTHORG_API_PORT');
  });

  it('should prefer the database, then the environment, then YAML, then the default', () => {
    expect(resolveSetting(port, '3000', { env, yaml })).toMatchObject({ value: '3000', source: 'db' });
    expect(resolveSetting(port, null, { env, yaml })).toMatchObject({ value: '4000', source: 'env' });
    expect(resolveSetting(port, null, { env: {}, yaml })).toMatchObject({ value: '5000', source: 'yaml' });
    expect(resolveSetting(port, null, { env: {}, yaml: {} })).toMatchObject({ value: '3001', source: 'default' });
  });

  it('should read a declared YAML path and serialise a YAML structure as JSON', () => {
    expect(resolveSetting(list, null, { env: {}, yaml })).toMatchObject({ value: '["a"]', source: 'yaml' });
  });

  it('should skip an invalid lower-tier value and report it', () => {
    const resolved = resolveSetting(port, null, { env: { SYNTHORG_API_PORT: '0' }, yaml });
    expect(resolved).toMatchObject({ value: '5000', source: 'yaml' });
    expect(resolved.problems).toEqual([expect.stringContaining('SYNTHORG_API_PORT')]);
  });

  it('should read a declared alias after the canonical environment name', () => {
    const [aliased] = defineSettings('providers', [
      { key: 'mode', type: 'enum', default: 'a', description: '', enumValues: ['a', 'b'], envAliases: ['OLD_MODE'] },
    ]);
    expect(resolveSetting(aliased, null, { env: { OLD_MODE: 'b' }, yaml: {} })).toMatchObject({ source: 'env' });
    expect(
      resolveSetting(aliased, null, { env: { OLD_MODE: 'b', SYNTHORG_PROVIDERS_MODE: 'a' }, yaml: {} }).value,
    ).toBe('a');
  });
});
