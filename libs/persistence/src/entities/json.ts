/*
 * Shapes of `simple-json` columns. They are deliberately loose: TypeORM's partial-entity types
 * cannot walk a recursive JSON type, and the services validate these values with domain rules.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export type JsonValue = any;
export type JsonObject = Record<string, any>;
/* eslint-enable @typescript-eslint/no-explicit-any */
