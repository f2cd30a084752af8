import { DefaultNamingStrategy, type NamingStrategyInterface } from 'typeorm';

function snake(value: string): string {
  return value
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** Entities are camelCase, tables and columns snake_case, on both dialects. */
export class SnakeNamingStrategy extends DefaultNamingStrategy implements NamingStrategyInterface {
  override tableName(className: string, customName: string | undefined): string {
    return customName ?? snake(className.replace(/Entity$/, ''));
  }

  override columnName(propertyName: string, customName: string | undefined, prefixes: string[]): string {
    return snake(prefixes.concat(customName ?? propertyName).join('_'));
  }

  override relationName(propertyName: string): string {
    return snake(propertyName);
  }

  override joinColumnName(relationName: string, referencedColumnName: string): string {
    return snake(`${relationName}_${referencedColumnName}`);
  }
}

function tableNameOf(tableOrName: { name: string } | string): string {
  const name = typeof tableOrName === 'string' ? tableOrName : tableOrName.name;
  return name.split('.').pop() ?? name;
}

/** Readable constraint names (`PK_settings`, `IDX_tasks_status`), kept under Postgres' 63-byte limit. */
function constraintName(prefix: string, tableOrName: { name: string } | string, columns: string[] = []): string {
  const name = [prefix, tableNameOf(tableOrName), ...columns].join('_');
  return name.length <= 63 ? name : name.slice(0, 54) + '_' + hash8(name);
}

function hash8(value: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    h = Math.imul(h ^ value.charCodeAt(i), 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

export class ReadableConstraintNamingStrategy extends SnakeNamingStrategy {
  override primaryKeyName(tableOrName: { name: string } | string): string {
    return constraintName('PK', tableOrName);
  }

  override uniqueConstraintName(tableOrName: { name: string } | string, columnNames: string[]): string {
    return constraintName('UQ', tableOrName, columnNames);
  }

  override indexName(tableOrName: { name: string } | string, columnNames: string[]): string {
    return constraintName('IDX', tableOrName, columnNames);
  }

  override foreignKeyName(tableOrName: { name: string } | string, columnNames: string[]): string {
    return constraintName('FK', tableOrName, columnNames);
  }
}
