import { BINARY_MANIFEST } from './manifest';
import { compareToFloor } from './version';

describe('BINARY_MANIFEST', () => {
  const byName = new Map(BINARY_MANIFEST.map((requirement) => [requirement.binary, requirement]));

  it('should demand git 2.48 from package git for every backend', () => {
    const git = byName.get('git');
    expect(git).toMatchObject({ package: 'git', minVersion: '2.48' });
    expect(git?.backends).toBeUndefined();
    expect(git?.subsystems).toEqual([
      'workspace provisioning on every task dispatch',
      'agent git tools (worktrees)',
      'project repositories',
    ]);
  });

  it('should demand the postgres client tools only for the postgres backend', () => {
    expect(byName.get('pg_dump')).toMatchObject({
      package: 'postgresql-client',
      subsystems: ['Postgres backup'],
      backends: ['postgres'],
    });
    expect(byName.get('pg_restore')).toMatchObject({
      package: 'postgresql-client',
      subsystems: ['Postgres restore'],
      backends: ['postgres'],
    });
  });

  it('should list exactly the binaries the service runs itself when adapters download their own', () => {
    expect([...byName.keys()].sort()).toEqual(['git', 'pg_dump', 'pg_restore']);
  });

  it('should only carry floors that compare against themselves when checked', () => {
    for (const requirement of BINARY_MANIFEST) {
      if (requirement.minVersion !== undefined) {
        expect(compareToFloor(requirement.minVersion, requirement.minVersion)).toBe('ok');
      }
    }
  });
});
