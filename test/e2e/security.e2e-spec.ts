import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DETECTORS, type Detector, ErrorCode, OUTPUT_WITHHELD_MESSAGE } from '@app/domain';
import { DatabaseService } from '@app/platform';
import { testBackends } from '@app/testing';

import { bearer, expectError, type MockLlm, type TestApp } from '../support';
import { type Json, type SceneAgent, SecurityScene } from './security-scene';

const AWS_KEY = ['AKIA', 'IOSFODNN7', 'EXAMPLE'].join('');

jest.setTimeout(90_000);

// What the security pipeline does to a run's tool calls and outputs; the autonomy levels and trust
// it also decides are in autonomy.e2e-spec.ts.
describe.each(testBackends())('security on %s', (backend) => {
  const scene = new SecurityScene(backend);
  const { run, records, setSetting } = scene;
  let t: TestApp;
  let mock: MockLlm;
  let ceo: string;
  let agent: SceneAgent;

  beforeAll(async () => {
    ({ t, mock, ceo, agent } = await scene.start());
  });

  afterEach(() => mock.reset());

  afterAll(() => scene.close());

  it('should deny rm -rf /, reading .env and writing an AWS key, tell the agent why, and let the run continue', async () => {
    mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: '.env' } }] },
      { kind: 'tool_calls', calls: [{ name: 'write_file', arguments: { path: 'wipe.sh', content: 'rm -rf /\n' } }] },
      {
        kind: 'tool_calls',
        calls: [{ name: 'write_file', arguments: { path: 'keys.txt', content: `id ${AWS_KEY}` } }],
      },
      { kind: 'text', text: 'Nothing to tidy.' },
    );
    const { task, replies } = await run();

    expect(replies).toHaveLength(3);
    expect(replies[0]).toContain('denied by security policy: data_leak detector: dotenv_file in path');
    expect(replies[1]).toContain('denied by security policy: destructive detector: rm_recursive_force');
    expect(replies[2]).toContain('denied by security policy: credential detector: aws_access_key');
    expect(replies.join('\n')).not.toContain(AWS_KEY);
    const repo = join(t.config.engine.workspaceDir, 'repo');
    expect(existsSync(join(repo, 'wipe.sh'))).toBe(false);
    expect(existsSync(join(repo, 'keys.txt'))).toBe(false);

    const rows = await records(task.id as string);
    expect(rows.map((r) => [r.kind, r.toolName, r.actionType, r.verdict, r.enforced, r.riskLevel, r.mode])).toEqual([
      ['tool_call', 'read_file', 'code:read', 'deny', 'deny', 'high', 'active'],
      ['tool_call', 'write_file', 'code:write', 'deny', 'deny', 'critical', 'active'],
      ['tool_call', 'write_file', 'code:write', 'deny', 'deny', 'critical', 'active'],
    ]);
    expect(rows.every((r) => r.agentId === agent.id && !r.reason.includes(AWS_KEY))).toBe(true);
  });

  it('should redact a secret in a tool output and record only the pattern name', async () => {
    await setSetting('detect_credentials', 'false').expect(200);
    mock.enqueue(
      {
        kind: 'tool_calls',
        calls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: `key ${AWS_KEY}\n` } }],
      },
      { kind: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { kind: 'text', text: 'Read the notes.' },
    );
    const { task, replies } = await run();
    await setSetting('detect_credentials', 'true').expect(200);

    expect(replies[1]).toBe('key [REDACTED]\n');
    const scans = (await records(task.id as string)).filter((r) => r.kind === 'output_scan');
    expect(scans).toEqual([
      expect.objectContaining({
        toolName: 'read_file',
        verdict: 'redacted',
        enforced: 'redacted',
        finding: 'aws_access_key',
      }),
    ]);
    expect(scans[0].reason).not.toContain(AWS_KEY);
  });

  it("should redact or withhold a secret in the agent's final answer before the task keeps it", async () => {
    mock.enqueue({ kind: 'text', text: `Done. The deploy key is ${AWS_KEY}.` });
    const redacted = (await run()).task;
    expect(redacted.result).toBe('Done. The deploy key is [REDACTED].');
    expect(redacted.output_withheld).toBe(false);
    const listed = (
      await t.http.get('/api/v1/tasks').query({ status: 'completed', limit: 200 }).set(bearer(ceo)).expect(200)
    ).body.data as Json[];
    expect(listed.find((x) => x.id === redacted.id)).toMatchObject({ result: redacted.result });
    expect(await records(redacted.id as string)).toEqual([
      expect.objectContaining({
        kind: 'output_scan',
        toolName: null,
        verdict: 'redacted',
        enforced: 'redacted',
        finding: 'aws_access_key',
      }),
    ]);

    await setSetting('output_scan_policy_type', 'withhold').expect(200);
    mock.enqueue({ kind: 'text', text: `Here: ${AWS_KEY}` });
    const withheld = (await run()).task;
    await t.http.delete('/api/v1/settings/security/output_scan_policy_type').set(bearer(ceo)).expect(204);
    expect(withheld.result).toBe(OUTPUT_WITHHELD_MESSAGE);
    expect(withheld.output_withheld).toBe(true);

    // Nothing the scans caught is stored in clear: tasks, security records, logs.
    const db = t.app.get(DatabaseService).dataSource;
    const stored = JSON.stringify(await db.query('SELECT result, status_reason FROM tasks'));
    expect(stored).not.toContain(AWS_KEY);
    const reasons = (await records(withheld.id as string)).map((r) => r.reason).join('\n');
    expect(reasons).toContain('final output scan (withhold) found aws_access_key');
    expect(reasons).not.toContain(AWS_KEY);
    const logs = join(t.config.logging.dir);
    for (const file of ['synthorg.log', 'agent_activity.log', 'audit.log']) {
      const path = join(logs, file);
      if (existsSync(path)) {
        expect(readFileSync(path, 'utf8')).not.toContain(AWS_KEY);
      }
    }
  });

  it('should offer the model only the tools the access level grants', async () => {
    mock.enqueue({ kind: 'text', text: 'Looked.' });
    await run();
    const chats = mock.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const offered = ((chats[chats.length - 1].body as Json).tools as Json[]).map((x) => x.function.name as string);
    // standard: file system, code execution, version control, web, terminal, analytics; no communication.
    expect(offered).toEqual(expect.arrayContaining(['read_file', 'write_file', 'list_files', 'run_command']));
    expect(offered).not.toContain('send_message');
  });

  it('should record but allow a blocking verdict in shadow mode', async () => {
    await setSetting('enforcement_mode', 'shadow').expect(200);
    mock.enqueue(
      {
        kind: 'tool_calls',
        calls: [{ name: 'write_file', arguments: { path: 'clean.sh', content: 'rm -rf build\n' } }],
      },
      { kind: 'text', text: 'Added a clean script.' },
    );
    const { task, replies } = await run();
    await t.http.delete('/api/v1/settings/security/enforcement_mode').set(bearer(ceo)).expect(204);

    expect(replies[0]).not.toContain('denied');
    expect(readFileSync(join(t.config.engine.workspaceDir, 'repo', 'clean.sh'), 'utf8')).toBe('rm -rf build\n');
    expect(await records(task.id as string)).toEqual([
      expect.objectContaining({ verdict: 'deny', enforced: 'allow', mode: 'shadow', riskLevel: 'critical' }),
    ]);
  });

  it('should deny a call when a detector crashes (fail closed)', async () => {
    const crashing: Detector = () => {
      throw new Error('detector exploded');
    };
    const restore = jest.spyOn(DETECTORS, 'path_traversal').mockImplementation(crashing);
    mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'list_files', arguments: { path: '.' } }] },
      { kind: 'text', text: 'Could not list.' },
    );
    try {
      const { task, replies } = await run();
      expect(replies[0]).toContain('denied by security policy: security evaluation failed: detector exploded');
      expect(await records(task.id as string)).toEqual([
        expect.objectContaining({ verdict: 'deny', enforced: 'deny', riskLevel: 'critical', finding: 'failure' }),
      ]);
    } finally {
      restore.mockRestore();
    }
  });

  it('should run the worktree tests with run_command under the subprocess backend and time out a hanging one', async () => {
    await setSetting('sandbox_subprocess_timeout_seconds', '2').expect(200);
    mock.enqueue(
      {
        kind: 'tool_calls',
        calls: [
          {
            name: 'write_file',
            arguments: { path: 'check.test.js', content: "console.log('tests passed:', 2 + 2 === 4);\n" },
          },
        ],
      },
      { kind: 'tool_calls', calls: [{ name: 'run_command', arguments: { command: 'node check.test.js; env' } }] },
      { kind: 'tool_calls', calls: [{ name: 'run_command', arguments: { command: 'sleep 60' } }] },
      { kind: 'text', text: 'Tests pass; the slow one hangs.' },
    );
    const { task, replies } = await run();
    await t.http.delete('/api/v1/settings/security/sandbox_subprocess_timeout_seconds').set(bearer(ceo)).expect(204);

    expect(replies[1]).toMatch(/^exit code 0 after \d+ ms\nsandbox: scrubbed environment; own process group; network/);
    expect(replies[1]).toContain('tests passed: true');
    expect(replies[1]).not.toContain('SYNTHORG_');
    expect(replies[2]).toContain('command timed out after 2 s; its process group was killed');
    const calls = await records(task.id as string);
    expect(calls.filter((r) => r.toolName === 'run_command').map((r) => [r.actionType, r.enforced])).toEqual([
      ['code:write', 'allow'],
      ['code:write', 'allow'],
    ]);
  });

  it('should fail run_command with a clear error when the container backend has no runtime', async () => {
    await setSetting('sandbox_overrides', '{"code_execution": "container"}').expect(200);
    mock.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'run_command', arguments: { command: 'echo hi' } }] },
      { kind: 'text', text: 'No sandbox.' },
    );
    const { replies } = await run();
    await t.http.delete('/api/v1/settings/security/sandbox_overrides').set(bearer(ceo)).expect(204);
    expect(replies[0]).toContain('run_command cannot run: no container runtime answers (tried docker, podman)');
    expect(replies[0]).toContain('no fallback');

    const bad = await setSetting('sandbox_overrides', '{"code_execution": "vm"}').expect(400);
    expectError(bad.body, ErrorCode.SandboxConfigInvalid);
  });
});
