// The fake model provider, for tests that exercise the real drivers on loopback.
export { startMockLlm } from '../../apps/mock-llm/src';
export type { MockLlm, MockLlmOptions, ScriptedReply } from '../../apps/mock-llm/src';
