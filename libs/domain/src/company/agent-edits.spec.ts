import { ErrorCode } from '../errors';
import {
  agentChangeMetadata,
  agentEtag,
  assertAgentEditable,
  assertAgentStatusEdit,
  canonicalJson,
  describeAgentChanges,
  diffAgentFields,
} from './agent-edits';

describe('agent edits', () => {
  it('should refuse any edit of a terminated agent with its own code', () => {
    expect(() => assertAgentEditable({ name: 'Ada', status: 'terminated' })).toThrow(
      expect.objectContaining({ code: ErrorCode.AgentTerminated }),
    );
    expect(() => assertAgentEditable({ name: 'Ada', status: 'on_leave' })).not.toThrow();
  });

  it('should move between active and on_leave only', () => {
    expect(() => assertAgentStatusEdit('active', 'on_leave')).not.toThrow();
    expect(() => assertAgentStatusEdit('on_leave', 'active')).not.toThrow();
    expect(() => assertAgentStatusEdit('active', 'active')).not.toThrow();
    for (const [from, to] of [
      ['onboarding', 'active'],
      ['onboarding', 'on_leave'],
      ['active', 'terminated'],
      ['active', 'onboarding'],
    ]) {
      expect(() => assertAgentStatusEdit(from, to)).toThrow(
        expect.objectContaining({ code: ErrorCode.AgentStatusChangeInvalid }),
      );
    }
  });

  it('should tag every version of an agent differently', () => {
    expect(agentEtag({ id: '0123456789abcdef', version: 3 })).toBe('"agent-01234567-v3"');
    expect(agentEtag({ id: '0123456789abcdef', version: 4 })).not.toBe(
      agentEtag({ id: '0123456789abcdef', version: 3 }),
    );
  });

  it('should list what changed, comparing objects by content whatever their key order', () => {
    const before = { name: 'Ada', model: { provider: 'p', model_id: 'a' }, tools: { b: 1, a: [1, 2] } };
    const after = { name: 'Ada', model: { model_id: 'b', provider: 'p' }, tools: { a: [1, 2], b: 1 } };
    const changes = diffAgentFields(before, after);
    expect(changes).toEqual([
      { field: 'model', from: '{"model_id":"a","provider":"p"}', to: '{"model_id":"b","provider":"p"}' },
    ]);
    expect(diffAgentFields({ status: 'active' }, { status: 'on_leave' })).toEqual([
      { field: 'status', from: 'active', to: 'on_leave' },
    ]);
  });

  it('should describe changes as text and as a string map', () => {
    const changes = [
      { field: 'status', from: 'active', to: 'on_leave' },
      { field: 'department', from: 'engineering', to: 'product' },
    ];
    expect(describeAgentChanges(changes)).toBe('status: active → on_leave; department: engineering → product');
    expect(describeAgentChanges(changes.slice(0, 1), 'holiday')).toBe('status: active → on_leave (holiday)');
    const long = [{ field: 'personality', from: 'x'.repeat(256), to: 'y'.repeat(256) }];
    expect(describeAgentChanges([...long, ...long, ...long], 'z'.repeat(500))).toHaveLength(1024);
    expect(agentChangeMetadata(changes)).toEqual({
      changed: 'status,department',
      'status.from': 'active',
      'status.to': 'on_leave',
      'department.from': 'engineering',
      'department.to': 'product',
    });
  });

  it('should keep long values short', () => {
    const [change] = diffAgentFields(
      { personality: { description: '' } },
      { personality: { description: 'x'.repeat(600) } },
    );
    expect(change.to.length).toBe(256);
    expect(change.to.endsWith('…')).toBe(true);
    expect(canonicalJson(undefined)).toBe('null');
  });
});
