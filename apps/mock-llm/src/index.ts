/** A fake model provider speaking the OpenAI, Anthropic and Ollama wire protocols on loopback. */
export { startMockLlm } from './server';
export type {
  ErrorReply,
  HangReply,
  MockErrorStatus,
  MockLlm,
  MockLlmOptions,
  MockRoute,
  MockToolCall,
  RecordedRequest,
  ReplyBody,
  ScriptedReply,
  TextReply,
  ToolCallsReply,
} from './types';
