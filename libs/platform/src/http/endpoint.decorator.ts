import { applyDecorators, SetMetadata, type Type } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';

import type { Permission } from '@app/domain';

import { Public } from '../auth/public.decorator';
import { RequirePermission } from '../auth/require-permission.decorator';

import {
  ApiEnvelope,
  ApiErrors,
  ApiNoContent,
  ApiPaged,
  type ErrorStatus,
  type Payload,
} from './api-envelope.decorator';

/** Metadata key of what a route declares through `@Endpoint` (read by tests of the role x route matrix). */
export const ENDPOINT_METADATA = 'synthorg:endpoint';

/** What `@Endpoint` records on the handler: who may call it and which error statuses it documents. */
export interface EndpointMetadata {
  permission: Permission | null;
  public: boolean;
  errors: readonly ErrorStatus[];
}

interface EndpointDocs {
  summary: string;
  description?: string;
  /** The error statuses the route can answer with (documented as the error envelope or problem+json). */
  errors: readonly ErrorStatus[];
}

/** The success payload: one envelope, a page, no content, or none documented here (a raw stream documents its own). */
type EndpointSuccess =
  | {
      response: Payload;
      status?: number;
      isArray?: boolean;
      nullable?: boolean;
      paged?: never;
      noContent?: never;
    }
  | {
      paged: Type<unknown>;
      /** Fields the page carries beside `data` and `pagination` (a DTO whose properties are merged in). */
      pageExtras?: Type<unknown>;
      response?: never;
      status?: never;
      noContent?: never;
    }
  | { noContent: true; response?: never; status?: never; paged?: never }
  | { response?: never; status?: never; paged?: never; noContent?: never };

/** Every route says who may call it: one permission, or that it is public. */
type EndpointAccess = { permission: Permission; public?: never } | { public: true; permission?: never };

/** Options of `@Endpoint`: documentation, success payload and access in one place. */
export type EndpointOptions = EndpointDocs & EndpointSuccess & EndpointAccess;

/**
 * One decorator per route: the permission (or public access), the operation summary, the success
 * envelope and the documented error statuses. Records them under ENDPOINT_METADATA as well.
 */
export function Endpoint(options: EndpointOptions): MethodDecorator {
  const access = accessOf(options);
  const metadata: EndpointMetadata = { ...access, errors: [...options.errors] };
  return applyDecorators(
    ApiErrors(...options.errors),
    ...successDecorators(options),
    ApiOperation(
      options.description === undefined
        ? { summary: options.summary }
        : { summary: options.summary, description: options.description },
    ),
    access.public ? Public() : RequirePermission(access.permission as Permission),
    SetMetadata(ENDPOINT_METADATA, metadata),
  );
}

/** What a handler declared through `@Endpoint`, or undefined when it has none. */
export function endpointMetadataOf(handler: object): EndpointMetadata | undefined {
  return Reflect.getMetadata(ENDPOINT_METADATA, handler) as EndpointMetadata | undefined;
}

function accessOf(options: EndpointAccess): Pick<EndpointMetadata, 'permission' | 'public'> {
  const isPublic = options.public === true;
  const permission = options.permission ?? null;
  // The types already demand exactly one; this guards casts and plain JavaScript callers at startup.
  if (isPublic === (permission !== null)) {
    throw new TypeError('@Endpoint needs exactly one of permission or public: true');
  }
  return { permission, public: isPublic };
}

function successDecorators(options: EndpointSuccess): MethodDecorator[] {
  if (options.response !== undefined) {
    return [
      ApiEnvelope(options.response, { status: options.status, isArray: options.isArray, nullable: options.nullable }),
    ];
  }
  if (options.paged !== undefined) {
    return [ApiPaged(options.paged, options.pageExtras)];
  }
  if (options.noContent === true) {
    return [ApiNoContent()];
  }
  return [];
}
