import type { OpenAPIObject } from '@nestjs/swagger';

import { errorResponse, namedSchema } from '@app/platform';

import { addSharedComponents } from './components';

const OFFSET = { in: 'query', name: 'offset', required: false, schema: { type: 'integer', minimum: 0, default: 0 } };

function documentWith(paths: Record<string, unknown>): OpenAPIObject {
  return { openapi: '3.1.0', info: { title: 't', version: '1' }, paths } as unknown as OpenAPIObject;
}

describe(addSharedComponents.name, () => {
  it('should refer the error responses the decorators wrote to components.responses', () => {
    const custom = { description: 'Another shape', content: {} };
    const document = documentWith({
      '/a': { get: { responses: { '404': errorResponse(404), '409': custom } } },
    });
    addSharedComponents(document);
    expect(document.paths['/a'].get?.responses).toEqual({
      '404': { $ref: '#/components/responses/NotFound' },
      '409': custom,
    });
    expect(document.components?.responses?.NotFound).toEqual(errorResponse(404));
  });

  it('should share the most common paging parameter and leave a different one inline', () => {
    const other = { ...OFFSET, description: 'Another offset' };
    const document = documentWith({
      '/a': { get: { parameters: [OFFSET], responses: {} } },
      '/b': { get: { parameters: [{ ...OFFSET }], responses: {} } },
      '/c': { get: { parameters: [other], responses: {} } },
    });
    addSharedComponents(document);
    expect(document.components?.parameters?.PageOffset).toEqual(OFFSET);
    expect(document.paths['/b'].get?.parameters).toEqual([{ $ref: '#/components/parameters/PageOffset' }]);
    expect(document.paths['/c'].get?.parameters).toEqual([other]);
  });

  it('should publish the envelopes and the schemas without a DTO class', () => {
    const ref = namedSchema('ProbeBodyRequest', { type: 'object' });
    const document = documentWith({});
    addSharedComponents(document);
    expect(ref).toEqual({ $ref: '#/components/schemas/ProbeBodyRequest' });
    expect(Object.keys(document.components?.schemas ?? {})).toEqual(
      expect.arrayContaining([
        'ApiResponse',
        'PaginatedResponse',
        'ErrorResponse',
        'ProblemDetail',
        'ProbeBodyRequest',
      ]),
    );
    expect(() => namedSchema('ProbeBodyRequest', { type: 'array' })).toThrow(/twice/);
  });
});
