import { ApiOperation } from '@nestjs/swagger';

import { Permission } from '@app/domain';

import { IS_PUBLIC } from '../auth/public.decorator';
import { RequirePermission, REQUIRED_PERMISSION } from '../auth/require-permission.decorator';

import { ApiEnvelope, ApiErrors, ApiNoContent, ApiPaged } from './api-envelope.decorator';
import { Endpoint, type EndpointOptions, endpointMetadataOf } from './endpoint.decorator';

class ItemDto {
  id!: string;
}

class PageSumsDto {
  total!: number;
}

const SWAGGER_KEYS = ['swagger/apiOperation', 'swagger/apiResponse', 'swagger/apiExtraModels', '__httpCode__'];

function handlerWith(...decorators: MethodDecorator[]): object {
  class Probe {
    handler(): void {}
  }
  const descriptor = Object.getOwnPropertyDescriptor(Probe.prototype, 'handler') as PropertyDescriptor;
  for (const decorator of decorators.reverse()) {
    decorator(Probe.prototype, 'handler', descriptor);
  }
  return descriptor.value as object;
}

function swaggerMetadata(handler: object): Record<string, unknown> {
  return Object.fromEntries(SWAGGER_KEYS.map((key) => [key, Reflect.getMetadata(key, handler) as unknown]));
}

describe(Endpoint.name, () => {
  it('should record the permission and the error statuses under ENDPOINT_METADATA', () => {
    const handler = handlerWith(
      Endpoint({ summary: 's', response: ItemDto, errors: [400, 404], permission: Permission.Write }),
    );
    expect(endpointMetadataOf(handler)).toEqual({ permission: Permission.Write, public: false, errors: [400, 404] });
    expect(Reflect.getMetadata(REQUIRED_PERMISSION, handler)).toBe(Permission.Write);
    expect(Reflect.getMetadata(IS_PUBLIC, handler)).toBeUndefined();
  });

  it('should mark a public route public and record no permission', () => {
    const handler = handlerWith(Endpoint({ summary: 's', noContent: true, errors: [], public: true }));
    expect(endpointMetadataOf(handler)).toEqual({ permission: null, public: true, errors: [] });
    expect(Reflect.getMetadata(IS_PUBLIC, handler)).toBe(true);
  });

  it('should leave handlers without it undeclared', () => {
    expect(endpointMetadataOf(handlerWith())).toBeUndefined();
  });

  it.each([
    ['neither', { summary: 's', errors: [] }],
    ['both', { summary: 's', errors: [], public: true, permission: Permission.Read }],
  ])('should refuse a route that declares %s of permission and public', (_label, options) => {
    expect(() => Endpoint(options as unknown as EndpointOptions)).toThrow(TypeError);
  });

  it('should document an envelope exactly as the decorator stack it replaces', () => {
    const single = handlerWith(
      Endpoint({
        summary: 'Create',
        description: 'More',
        response: ItemDto,
        status: 201,
        errors: [400, 409],
        permission: Permission.Write,
      }),
    );
    const stacked = handlerWith(
      RequirePermission(Permission.Write),
      ApiOperation({ summary: 'Create', description: 'More' }),
      ApiEnvelope(ItemDto, { status: 201 }),
      ApiErrors(400, 409),
    );
    expect(swaggerMetadata(single)['swagger/apiResponse']).toHaveProperty('201');
    expect(swaggerMetadata(single)).toEqual(swaggerMetadata(stacked));
  });

  it('should document a page, no content, or an array like the stack', () => {
    const cases: [MethodDecorator, MethodDecorator[]][] = [
      [
        Endpoint({ summary: 'List', paged: ItemDto, errors: [400], permission: Permission.Read }),
        [ApiOperation({ summary: 'List' }), ApiPaged(ItemDto), ApiErrors(400)],
      ],
      [
        Endpoint({ summary: 'Drop', noContent: true, errors: [404], permission: Permission.Write }),
        [ApiOperation({ summary: 'Drop' }), ApiNoContent(), ApiErrors(404)],
      ],
      [
        Endpoint({ summary: 'All', response: ItemDto, isArray: true, errors: [], permission: Permission.Read }),
        [ApiOperation({ summary: 'All' }), ApiEnvelope(ItemDto, { isArray: true })],
      ],
      [Endpoint({ summary: 'Raw', errors: [401], public: true }), [ApiOperation({ summary: 'Raw' }), ApiErrors(401)]],
    ];
    for (const [single, stack] of cases) {
      expect(swaggerMetadata(handlerWith(single))).toEqual(swaggerMetadata(handlerWith(...stack)));
    }
  });

  it("should merge a page's extra fields into its documented schema", () => {
    const handler = handlerWith(
      Endpoint({ summary: 'List', paged: ItemDto, pageExtras: PageSumsDto, errors: [], permission: Permission.Read }),
    );
    const responses = swaggerMetadata(handler)['swagger/apiResponse'] as Record<
      string,
      { schema: { allOf: unknown[] } }
    >;
    expect(responses['200'].schema.allOf).toEqual([
      { $ref: '#/components/schemas/PaginatedResponse' },
      { properties: { data: { type: 'array', items: { $ref: '#/components/schemas/ItemDto' } } } },
      { $ref: '#/components/schemas/PageSumsDto' },
    ]);
    const plain = swaggerMetadata(
      handlerWith(Endpoint({ summary: 'List', paged: ItemDto, errors: [], permission: Permission.Read })),
    );
    expect((plain['swagger/apiResponse'] as typeof responses)['200'].schema.allOf).toHaveLength(2);
  });
});
