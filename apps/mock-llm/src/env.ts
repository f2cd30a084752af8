/** Options of the standalone server, read from the environment. */
import type { MockLlmOptions } from './types';

/** The standalone server's port when MOCK_LLM_PORT is unset. */
export const DEFAULT_STANDALONE_PORT = 11500;

/**
 * MOCK_LLM_PORT (11500), MOCK_LLM_HOST (127.0.0.1), MOCK_LLM_MODELS (comma list), MOCK_LLM_API_KEY (none).
 * Throws on an invalid port.
 */
export function optionsFromEnv(env: NodeJS.ProcessEnv): MockLlmOptions {
  const rawPort = env.MOCK_LLM_PORT?.trim();
  const port = rawPort === undefined || rawPort === '' ? DEFAULT_STANDALONE_PORT : Number(rawPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`MOCK_LLM_PORT must be an integer in 0..65535, got '${rawPort}'`);
  }
  const models = (env.MOCK_LLM_MODELS ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const host = env.MOCK_LLM_HOST?.trim();
  const apiKey = env.MOCK_LLM_API_KEY;
  return {
    host: host === undefined || host === '' ? '127.0.0.1' : host,
    port,
    models: models.length === 0 ? undefined : models,
    apiKey: apiKey === undefined || apiKey === '' ? null : apiKey,
  };
}
