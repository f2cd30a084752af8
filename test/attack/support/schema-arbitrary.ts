import fc from 'fast-check';

import type { JsonSchema } from './operations';

/**
 * Known-good values by property name (a real project id for `project`, a real agent for
 * `assigned_to`): generated requests mix them in so that valid requests reach the service's logic
 * instead of stopping at "not found".
 */
export type Hints = Readonly<Record<string, readonly unknown[]>>;

const MAX_GENERATED_STRING = 40;
const MAX_GENERATED_ITEMS = 3;

/** URIs a generated request may carry: loopback ports that refuse at once and a reserved name that never resolves. */
const SAFE_URIS = ['http://127.0.0.1:1/v1', 'http://localhost:1', 'https://provider.invalid/v1'];

function types(schema: JsonSchema): string[] {
  const type = schema.type;
  if (Array.isArray(type)) {
    return type as string[];
  }
  if (typeof type === 'string') {
    return schema.nullable === true ? [type, 'null'] : [type];
  }
  if (schema.properties) {
    return ['object'];
  }
  if (schema.items) {
    return ['array'];
  }
  return [];
}

/** allOf parts merged into one schema (properties and required lists united). */
function merged(schema: JsonSchema): JsonSchema {
  const parts = schema.allOf as JsonSchema[] | undefined;
  if (!parts) {
    return schema;
  }
  const out: JsonSchema = { ...schema, allOf: undefined };
  for (const part of parts.map(merged)) {
    const properties = { ...(out.properties as object), ...(part.properties as object) };
    const required = [...((out.required as string[]) ?? []), ...((part.required as string[]) ?? [])];
    Object.assign(out, part, { properties, required });
  }
  return out;
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = Math.max(minLength, Math.min((schema.maxLength as number | undefined) ?? 64, MAX_GENERATED_STRING));
  switch (schema.format) {
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'uuid':
      return fc.uuid();
    case 'uri':
      return fc.constantFrom(...SAFE_URIS);
    case 'email':
      return fc.emailAddress();
    default:
  }
  if (typeof schema.pattern === 'string') {
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((s) => s.length >= minLength && s.length <= ((schema.maxLength as number | undefined) ?? Infinity));
  }
  const text = fc.string({ minLength, maxLength, unit: 'grapheme' });
  // A blank value is rarely meant to be valid; mostly give the service something it can use.
  return minLength > 0 ? text.filter((s) => s.trim().length > 0) : text;
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const exclusiveMin = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const exclusiveMax = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined;
  const min = (schema.minimum as number | undefined) ?? exclusiveMin ?? -1_000_000;
  const max = (schema.maximum as number | undefined) ?? exclusiveMax ?? 1_000_000;
  const inRange = (n: number): boolean =>
    (exclusiveMin === undefined || n > exclusiveMin) && (exclusiveMax === undefined || n < exclusiveMax);
  if (integer) {
    return fc.integer({ min: Math.ceil(min), max: Math.floor(max) }).filter(inRange);
  }
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).filter((n) => inRange(n) && !Object.is(n, -0));
}

function objectArbitrary(schema: JsonSchema, hints: Hints): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
  const names = Object.keys(properties).filter((name) => properties[name].readOnly !== true);
  if (names.length === 0) {
    // A free-form object (additionalProperties: true): a few scalar entries.
    return schema.additionalProperties === false
      ? fc.constant({})
      : fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.oneof(fc.string(), fc.integer(), fc.boolean()), {
          maxKeys: 3,
        });
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of names) {
    model[name] = valueArbitrary(properties[name], hints, name);
  }
  const required = ((schema.required as string[] | undefined) ?? []).filter((n) => names.includes(n));
  return fc.record(model, { requiredKeys: required });
}

/**
 * A fast-check arbitrary of values valid for a JSON schema (the subset the document uses: types,
 * nullable, enum/const, formats, patterns, bounds, arrays, objects, allOf/anyOf/oneOf). `name` is
 * the property the value is for, to look up hints.
 */
export function valueArbitrary(input: JsonSchema, hints: Hints = {}, name?: string): fc.Arbitrary<unknown> {
  const schema = merged(input);
  const generated = schemaValue(schema, hints);
  const known = name ? hints[name] : undefined;
  return known && known.length > 0
    ? fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 3 }, generated)
    : generated;
}

function schemaValue(schema: JsonSchema, hints: Hints): fc.Arbitrary<unknown> {
  if ('const' in schema) {
    return fc.constant(schema.const);
  }
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    return fc.constantFrom(...(schema.enum as unknown[]));
  }
  const choices = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (choices && choices.length > 0) {
    return fc.oneof(...choices.map((c) => valueArbitrary(c, hints)));
  }
  const options = types(schema).map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'string':
        return stringArbitrary(schema);
      case 'integer':
        return numberArbitrary(schema, true);
      case 'number':
        return numberArbitrary(schema, false);
      case 'boolean':
        return fc.boolean();
      case 'array': {
        const items = valueArbitrary((schema.items as JsonSchema | undefined) ?? {}, hints);
        const minLength = (schema.minItems as number | undefined) ?? 0;
        const maxLength = Math.max(
          minLength,
          Math.min((schema.maxItems as number | undefined) ?? 8, MAX_GENERATED_ITEMS),
        );
        return schema.uniqueItems === true
          ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
          : fc.array(items, { minLength, maxLength });
      }
      case 'object':
        return objectArbitrary(schema, hints);
      default:
        return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
    }
  });
  if (options.length === 0) {
    return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null));
  }
  // A nullable field is mostly given a value: null is one case among several, not half of them.
  const nonNull = options.filter((_, i) => types(schema)[i] !== 'null');
  const hasNull = nonNull.length < options.length;
  if (nonNull.length === 0) {
    return fc.constant(null);
  }
  const value = nonNull.length === 1 ? nonNull[0] : fc.oneof(...nonNull);
  return hasNull ? fc.oneof({ arbitrary: value, weight: 4 }, { arbitrary: fc.constant(null), weight: 1 }) : value;
}

/** The top-level property names of an object schema, with their schemas. */
export function schemaProperties(input: JsonSchema): Array<[string, JsonSchema]> {
  const schema = merged(input);
  return Object.entries((schema.properties as Record<string, JsonSchema> | undefined) ?? {});
}

/** The required property names of an object schema. */
export function requiredProperties(input: JsonSchema): string[] {
  return ((merged(input).required as string[] | undefined) ?? []).slice();
}

/** The JSON types a schema admits (`nullable` and type lists folded in). */
export function schemaTypes(input: JsonSchema): string[] {
  return types(merged(input));
}
