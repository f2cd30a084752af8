import { ErrorCode, NotFoundError, ValidationError } from '../errors';
import {
  normaliseSettingValue,
  SETTING_NAMESPACES,
  type SettingDefinition,
  settingId,
  type SettingNamespace,
  settingValueProblem,
  type SettingValueProblem,
} from './setting-definition';

const RULE_CODES: Readonly<Record<SettingValueProblem['rule'], ErrorCode>> = {
  type: ErrorCode.SettingTypeInvalid,
  enum: ErrorCode.SettingEnumInvalid,
  range: ErrorCode.SettingOutOfRange,
  pattern: ErrorCode.SettingPatternMismatch,
  length: ErrorCode.SettingValueTooLong,
};

/** Whether a name is one of the nine namespaces. */
export function isSettingNamespace(name: string): name is SettingNamespace {
  return (SETTING_NAMESPACES as readonly string[]).includes(name);
}

/**
 * The definitions modules declared, by namespace and key. Each owning module declares its own
 * namespace's settings; the registry only refuses a key declared twice.
 */
export class SettingDefinitions {
  private readonly byId = new Map<string, SettingDefinition>();

  declare(definitions: readonly SettingDefinition[]): void {
    for (const definition of definitions) {
      const id = settingId(definition.namespace, definition.key);
      if (this.byId.has(id)) {
        throw new TypeError(`setting ${id} is declared twice`);
      }
      this.byId.set(id, definition);
    }
  }

  /** Every definition, by namespace (in the schema's order), then key. */
  all(): SettingDefinition[] {
    const order = (ns: SettingNamespace) => SETTING_NAMESPACES.indexOf(ns);
    return [...this.byId.values()].sort(
      (a, b) => order(a.namespace) - order(b.namespace) || a.key.localeCompare(b.key),
    );
  }

  /** A namespace's definitions. @throws NotFoundError (3040) for an unknown namespace. */
  namespace(name: string): SettingDefinition[] {
    if (!isSettingNamespace(name)) {
      throw new NotFoundError(`Settings namespace "${name}" not found`, ErrorCode.SettingNamespaceNotFound);
    }
    return this.all().filter((d) => d.namespace === name);
  }

  /** One definition. @throws NotFoundError (3040 namespace, 3041 key). */
  get(namespace: string, key: string): SettingDefinition {
    if (!isSettingNamespace(namespace)) {
      throw new NotFoundError(`Settings namespace "${namespace}" not found`, ErrorCode.SettingNamespaceNotFound);
    }
    const definition = this.byId.get(settingId(namespace, key));
    if (!definition) {
      throw new NotFoundError(`Setting "${namespace}.${key}" not found`, ErrorCode.SettingNotFound);
    }
    return definition;
  }

  find(namespace: string, key: string): SettingDefinition | undefined {
    return this.byId.get(settingId(namespace, key));
  }
}

/**
 * Validates a value against its definition and returns its canonical text.
 * @throws ValidationError with the code of the broken rule (2040-2044), naming the setting.
 */
export function validateSettingValue(definition: SettingDefinition, raw: string): string {
  const problem = settingValueProblem(definition, raw);
  if (problem) {
    throw new ValidationError(problem.message, RULE_CODES[problem.rule]);
  }
  return normaliseSettingValue(definition, raw);
}
