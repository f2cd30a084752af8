import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

import { INTERFACE_VERSION } from '../version';

import { addSharedComponents } from './components';
import { addIdempotencyKeyHeader } from './idempotency-header';

export const OPENAPI_JSON_PATH = 'docs/openapi.json';
export const OPENAPI_UI_PATH = 'docs/api';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;

/** Builds the OpenAPI 3.1.0 document from the controllers and their decorators. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('SynthOrg API')
    .setDescription(
      'REST + WebSocket API of the agent-organization orchestration service. Every response uses the ' +
        'ApiResponse envelope (or PaginatedResponse for lists); errors carry a 4-digit error_code and can be ' +
        'negotiated as RFC 9457 application/problem+json.',
    )
    .setVersion(INTERFACE_VERSION)
    .addServer('/')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controllerKey: string, methodKey: string) => methodKey,
  });
  return postProcess(document);
}

/**
 * Serves the document at /docs/openapi.json and a browsable UI at /docs/api. Given a factory, the
 * document is built on its first request, once, instead of during startup.
 */
export function serveOpenApi(app: INestApplication, document: OpenAPIObject | (() => OpenAPIObject)): void {
  SwaggerModule.setup(OPENAPI_UI_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    yamlDocumentUrl: 'docs/openapi.yaml',
    useGlobalPrefix: false,
    ui: true,
  });
}

/**
 * @nestjs/swagger still emits 3.0 idioms: `nullable: true` becomes a type union with 'null' and
 * `example` becomes `examples`. What operations share moves to `components`. Operation ids are made
 * from the path plus the handler name.
 */
export function postProcess(document: OpenAPIObject): OpenAPIObject {
  const processed = convert3_0Idioms(JSON.parse(JSON.stringify(document)) as Json) as unknown as OpenAPIObject;
  processed.openapi = '3.1.0';
  addSharedComponents(processed);
  addIdempotencyKeyHeader(processed);
  for (const [path, item] of Object.entries(processed.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation) {
        operation.operationId = operationIdFor(path, operation.operationId ?? method);
      }
    }
  }
  return sortKeys(processed as unknown as Json) as unknown as OpenAPIObject;
}

export function operationIdFor(path: string, handler: string): string {
  const words = path
    .replace(/^\/api\/v1\/?/, '')
    .split(/[/{}_-]+/)
    .filter(Boolean);
  const pascal = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  return ['Api', 'V1', ...words.map(pascal), pascal(handler)].join('');
}

function convert3_0Idioms(node: Json): Json {
  if (Array.isArray(node)) {
    return node.map(convert3_0Idioms);
  }
  if (node === null || typeof node !== 'object') {
    return node;
  }
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'nullable' || (key === 'example' && 'examples' in node)) {
      continue;
    }
    if (key === 'example' && isSchemaLike(node)) {
      out.examples = [convert3_0Idioms(value)];
      continue;
    }
    out[key] = convert3_0Idioms(value);
  }
  if (node.nullable === true) {
    return makeNullable(out);
  }
  return out;
}

function isSchemaLike(node: { [key: string]: Json }): boolean {
  return 'type' in node || '$ref' in node || 'enum' in node || 'format' in node;
}

function makeNullable(schema: { [key: string]: Json }): Json {
  const type = schema.type;
  if (typeof type === 'string') {
    const out: { [key: string]: Json } = { ...schema, type: [type, 'null'] };
    if (Array.isArray(schema.enum)) {
      out.enum = [...schema.enum, null];
    }
    return out;
  }
  if (Array.isArray(type)) {
    return type.includes('null') ? schema : { ...schema, type: [...type, 'null'] };
  }
  if (typeof schema.$ref === 'string' || schema.allOf) {
    const { description, ...rest } = schema;
    const union: { [key: string]: Json } = { oneOf: [rest, { type: 'null' }] };
    if (description !== undefined) {
      union.description = description;
    }
    return union;
  }
  return schema;
}

function sortKeys(node: Json): Json {
  if (Array.isArray(node)) {
    return node.map(sortKeys);
  }
  if (node === null || typeof node !== 'object') {
    return node;
  }
  const out: { [key: string]: Json } = {};
  for (const key of Object.keys(node).sort()) {
    out[key] = sortKeys(node[key]);
  }
  return out;
}
