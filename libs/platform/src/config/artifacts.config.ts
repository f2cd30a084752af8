import { resolve } from 'node:path';

import { z } from 'zod';

import { ARTIFACT_LIMITS } from '@app/domain';

/** Where artifact content lives and how much of it there may be. */
export interface ArtifactsConfig {
  /** Content directory (one file per artifact); a shared volume across replicas, like the workspace. */
  readonly dir: string;
  /** Bytes of one artifact's content at most (413, 2002 beyond). */
  readonly maxBytes: number;
  /** Bytes of all artifacts' content together at most (507, 8007 beyond). */
  readonly maxTotalBytes: number;
}

/** Reads one field of the configuration (environment, then YAML, then the fallback). */
export type ArtifactsFieldReader = <T>(field: {
  env?: string;
  yaml?: readonly string[];
  schema: z.ZodType<T>;
  fallback: T;
}) => T;

// The size columns are 32-bit on Postgres: one artifact stays below 2 GiB.
const MAX_ARTIFACT_BYTES = 2 ** 31 - 1;

/** The artifacts section: `SYNTHORG_ARTIFACTS_DIR`, `SYNTHORG_ARTIFACT_MAX_BYTES`, `SYNTHORG_ARTIFACT_STORAGE_BYTES`. */
export function artifactsConfig(f: ArtifactsFieldReader, cwd: string): ArtifactsConfig {
  const bytes = (max: number) => z.coerce.number().int('expected a whole number of bytes').min(1).max(max);
  const dir = f({
    env: 'SYNTHORG_ARTIFACTS_DIR',
    yaml: ['artifacts', 'dir'],
    schema: z.string().trim().min(1, 'must not be empty'),
    fallback: 'data/artifacts',
  });
  return {
    dir: resolve(cwd, dir),
    maxBytes: f({
      env: 'SYNTHORG_ARTIFACT_MAX_BYTES',
      yaml: ['artifacts', 'max_bytes'],
      schema: bytes(MAX_ARTIFACT_BYTES),
      fallback: ARTIFACT_LIMITS.defaultMaxBytes,
    }),
    maxTotalBytes: f({
      env: 'SYNTHORG_ARTIFACT_STORAGE_BYTES',
      yaml: ['artifacts', 'storage_bytes'],
      schema: bytes(Number.MAX_SAFE_INTEGER),
      fallback: ARTIFACT_LIMITS.defaultMaxTotalBytes,
    }),
  };
}
