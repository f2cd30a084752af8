/** Version of this service build (independent of the /api/v1 path prefix); backups record it. */
export const SERVICE_VERSION = '0.6.1';
