/** Version of this service build (independent of the /api/v1 path prefix). */
export { SERVICE_VERSION } from '@app/domain';
/** Version of the interface contract the OpenAPI document declares. */
export const INTERFACE_VERSION = '0.6.1';
