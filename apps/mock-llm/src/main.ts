/**
 * Standalone fake model provider for demos and out-of-process tests (`npm run mock-llm` after a build).
 * Env: MOCK_LLM_PORT (11500), MOCK_LLM_HOST (127.0.0.1), MOCK_LLM_MODELS (comma list), MOCK_LLM_API_KEY.
 */
import { optionsFromEnv } from './env';
import { startMockLlm } from './server';

async function main(): Promise<void> {
  const mock = await startMockLlm(optionsFromEnv(process.env));
  process.stdout.write(
    `mock-llm listening on ${mock.url} (openai: ${mock.url}/v1, anthropic: ${mock.url}/anthropic, ollama: ${mock.url})\n`,
  );
  const stop = (): void => {
    void mock.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`mock-llm: startup failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
