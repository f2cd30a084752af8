import { ErrorCode } from '../errors';
import {
  assertServerEnvName,
  assertToolActions,
  assertToolServerName,
  deriveToolAction,
  isMcpToolName,
  mcpToolName,
  redactKnownSecrets,
  restartDelayMs,
  serverAllows,
  serverToolNeedsPerson,
} from './tool-servers';

describe('tool server rules', () => {
  it.each(['fixture', 'git-hub', 'a_b', 'x1'])('should accept the server name %s', (name) => {
    expect(() => assertToolServerName(name)).not.toThrow();
  });

  it.each(['', 'Fixture', 'a__b', '_a', '1a', 'a_', 'x'.repeat(41)])('should refuse the server name "%s"', (name) => {
    expect(() => assertToolServerName(name)).toThrow(expect.objectContaining({ code: ErrorCode.ToolServerInvalid }));
  });

  it('should namespace tool names and refuse the ones a model could not take', () => {
    expect(mcpToolName('fixture', 'echo')).toBe('fixture__echo');
    expect(mcpToolName('fixture', 'has space')).toBeNull();
    expect(mcpToolName('fixture', 'x'.repeat(60))).toBeNull();
    expect(isMcpToolName('fixture__echo')).toBe(true);
    expect(isMcpToolName('read_file')).toBe(false);
  });

  it('should derive the action type: explicit first, then read-only, destructive, non-destructive, unknown as destructive', () => {
    expect(deriveToolAction('deploy:staging', { readOnlyHint: true })).toEqual({
      action: 'deploy:staging',
      source: 'explicit',
    });
    expect(deriveToolAction(undefined, { readOnlyHint: true, destructiveHint: true })).toEqual({
      action: 'code:read',
      source: 'read_only_hint',
    });
    expect(deriveToolAction(undefined, { destructiveHint: true })).toEqual({
      action: 'code:delete',
      source: 'destructive_hint',
    });
    expect(deriveToolAction(undefined, { destructiveHint: false })).toEqual({
      action: 'code:write',
      source: 'non_destructive_hint',
    });
    expect(deriveToolAction(undefined, {})).toEqual({ action: 'code:delete', source: 'unknown' });
  });

  it('should refuse an unknown action type or a bad tool name in the tool action map', () => {
    expect(assertToolActions({ echo: 'code:read' })).toEqual({ echo: 'code:read' });
    expect(() => assertToolActions({ echo: 'code:explode' })).toThrow(/not an action type/);
    expect(() => assertToolActions({ 'bad name': 'code:read' })).toThrow(/not a tool name/);
  });

  it('should send a high-risk server tool to a person at every level but full', () => {
    expect(serverToolNeedsPerson('semi', 'code:delete')).toBe(true);
    expect(serverToolNeedsPerson('supervised', 'deploy:production')).toBe(true);
    expect(serverToolNeedsPerson('full', 'code:delete')).toBe(false);
    expect(serverToolNeedsPerson('supervised', 'code:read')).toBe(false);
  });

  it('should allow an agent by department, id or name, and nobody on empty lists', () => {
    const agent = { id: 'a-1', name: 'Ada Lovelace', department: 'Engineering' };
    expect(serverAllows({ departments: [], agents: [] }, agent)).toBe(false);
    expect(serverAllows({ departments: ['engineering'], agents: [] }, agent)).toBe(true);
    expect(serverAllows({ departments: [], agents: ['a-1'] }, agent)).toBe(true);
    expect(serverAllows({ departments: [], agents: ['ada lovelace'] }, agent)).toBe(true);
    expect(serverAllows({ departments: ['product'], agents: ['someone'] }, agent)).toBe(false);
  });

  it('should refuse loader and runtime hooks as environment names', () => {
    expect(() => assertServerEnvName('API_TOKEN')).not.toThrow();
    for (const name of ['LD_PRELOAD', 'DYLD_INSERT_LIBRARIES', 'NODE_OPTIONS', '1X', 'A-B']) {
      expect(() => assertServerEnvName(name)).toThrow(expect.objectContaining({ code: ErrorCode.ToolServerInvalid }));
    }
  });

  it('should back off restarts, doubling up to 30 seconds', () => {
    expect([1, 2, 3, 8, 20].map(restartDelayMs)).toEqual([250, 500, 1000, 30_000, 30_000]);
  });

  it('should redact every occurrence of a secret and leave short values alone', () => {
    expect(redactKnownSecrets('token abcd1234 and abcd1234', ['abcd1234', 'ab'])).toBe(
      'token [REDACTED] and [REDACTED]',
    );
  });
});
