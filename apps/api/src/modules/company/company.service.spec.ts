import { Channel, ErrorCode, ForbiddenError, HumanRole } from '@app/domain';
import type { DepartmentEntity } from '@app/persistence';
import { EventBus } from '@app/platform';
import {
  actorContext,
  agentRow,
  companyRow,
  departmentRow,
  makeServiceUnderTest,
  recordPublished,
  rawRowOf,
} from '@app/testing';

import { type AgentConfigDto, AgentRoster } from '../agents';
import { RunLedger } from '../run-ledger';
import { type DepartmentRow } from './company.mapper';
import { CompanyRepository } from './company.repository';
import { CompanyService } from './company.service';

const CEO = actorContext();
const ENGINEERING = departmentRow({ name: 'Engineering', version: 3 });
const ETAG = `"dept-${ENGINEERING.id.slice(0, 8)}-v3"`;
const POLICY = { strategy: 'task_driven' };

/** The company with Engineering (version 3) and Product, two engineers on the roster. */
function build(departments: DepartmentEntity[] = [ENGINEERING, departmentRow({ name: 'Product', position: 1 })]) {
  const unit = makeServiceUnderTest(CompanyService);
  const m = {
    sut: unit.sut,
    company: unit.mock(CompanyRepository),
    agents: unit.mock(AgentRoster),
    ledger: unit.mock(RunLedger),
    published: recordPublished(unit.mock(EventBus)),
  };
  m.company.findCompany.mockResolvedValue(companyRow({ currency: 'USD' }));
  m.company.allDepartments.mockResolvedValue(departments);
  m.company.findDepartment.mockImplementation((key) =>
    Promise.resolve(departments.find((d) => d.nameKey === key) ?? null),
  );
  m.agents.countByDepartment.mockResolvedValue(new Map([['engineering', 2]]));
  return m;
}

describe(CompanyService.name, () => {
  describe('company and departments', () => {
    it('should refuse with 3018 when no company exists yet', async () => {
      const { sut, company } = build();
      company.findCompany.mockResolvedValue(null);

      await expect(sut.get()).rejects.toMatchObject({ code: ErrorCode.CompanyNotFound });
    });

    it('should describe the company with its departments and head counts when it exists', async () => {
      const { sut, agents } = build();
      const roster = [{ name: 'Ada' }, { name: 'Grace' }] as AgentConfigDto[];
      agents.configs.mockResolvedValue(roster);

      const company = await sut.get();

      expect(company).toMatchObject({
        name: 'Acme Labs',
        company_name: 'Acme Labs',
        agents: roster,
        agent_count: 2,
        config: { currency: 'USD' },
      });
      expect(company.departments.map((d) => [d.name, d.agent_count])).toEqual([
        ['Engineering', 2],
        ['Product', 0],
      ]);
    });

    it('should find a department case-insensitively when its name is given in any case', async () => {
      const { sut, company, agents } = build();

      await expect(sut.department('ENGINEERING')).resolves.toMatchObject({ name: 'Engineering', agent_count: 2 });
      expect(company.findDepartment).toHaveBeenCalledWith('engineering');
      expect(agents.countByDepartment).toHaveBeenCalledWith('engineering');
    });

    it('should refuse with 3014 when the department is unknown', async () => {
      const { sut } = build();

      await expect(sut.department('Marketing')).rejects.toMatchObject({ code: ErrorCode.DepartmentNotFound });
    });

    it('should page the departments in the requested window', async () => {
      const { sut, company } = build();
      company.pageDepartments.mockResolvedValue({ items: [rawRowOf<DepartmentRow>(ENGINEERING)], total: 2 });

      await expect(sut.pageDepartments({ offset: 0, limit: 1 })).resolves.toMatchObject({
        total: 2,
        items: [{ name: 'Engineering', agent_count: 2 }],
      });
    });
  });

  describe('health', () => {
    it('should report counts without reading the ledger when the department has no agents', async () => {
      const { sut, agents, ledger } = build();
      agents.findByDepartment.mockResolvedValue([]);

      const health = await sut.health('Product');

      expect(health).toMatchObject({ department_name: 'Product', agent_count: 0, utilization_degraded: false });
      expect(ledger.metricsSince).not.toHaveBeenCalled();
    });

    it('should read 30 days of metrics and 7 days of costs of the members only', async () => {
      const { sut, agents, ledger } = build();
      const ada = agentRow({ name: 'Ada' });
      agents.findByDepartment.mockResolvedValue([ada, agentRow({ name: 'Bob', status: 'on_leave' })]);
      ledger.metricsSince.mockResolvedValue([]);
      ledger.costsSince.mockResolvedValue([]);

      const health = await sut.health('engineering');

      expect(health).toMatchObject({ agent_count: 2, active_agent_count: 1, utilization_degraded: false });
      const [metricsSince, ids] = ledger.metricsSince.mock.calls[0];
      const [costsSince] = ledger.costsSince.mock.calls[0];
      expect(ids).toEqual([ada.id, 'agent-bob']);
      expect(Math.round((Date.now() - (metricsSince?.getTime() ?? 0)) / 86_400_000)).toBe(30);
      expect(Math.round((Date.now() - (costsSince?.getTime() ?? 0)) / 86_400_000)).toBe(7);
    });

    it('should answer degraded figures when the ledger cannot be read', async () => {
      const { sut, agents, ledger } = build();
      agents.findByDepartment.mockResolvedValue([agentRow()]);
      ledger.metricsSince.mockRejectedValue(new Error('database is locked'));
      ledger.costsSince.mockResolvedValue([]);

      await expect(sut.health('Engineering')).resolves.toMatchObject({ agent_count: 1, utilization_degraded: true });
    });
  });

  describe('ceremony policy', () => {
    it('should answer the stored policy with an ETag of the department version', async () => {
      const { sut } = build();

      await expect(sut.ceremonyPolicy('Engineering')).resolves.toEqual({ policy: null, etag: ETAG });
    });

    it('should store the normalised policy, bump the ETag and announce it when the CEO sets it', async () => {
      const { sut, company, published } = build();
      company.setCeremonyPolicy.mockResolvedValue(true);

      const result = await sut.setCeremonyPolicy(CEO, 'engineering', { ...POLICY, velocity_calculator: null }, ETAG);

      expect(result).toEqual({ policy: POLICY, etag: ETAG.replace('-v3', '-v4') });
      expect(company.setCeremonyPolicy).toHaveBeenCalledWith(ENGINEERING.id, 3, POLICY);
      expect(published).toEqual([
        expect.objectContaining({
          channel: Channel.Departments,
          event_type: 'department.updated',
          payload: { name: 'Engineering', ceremony_policy: POLICY },
        }),
      ]);
    });

    it('should refuse with 2001 before any read when the policy has an unknown field', async () => {
      const { sut, company } = build();

      await expect(sut.setCeremonyPolicy(CEO, 'Engineering', { cadence: 'daily' }, undefined)).rejects.toMatchObject({
        code: ErrorCode.RequestValidationError,
      });
      expect(company.findDepartment).not.toHaveBeenCalled();
    });

    it('should refuse with 4002 and write nothing when If-Match is stale', async () => {
      const { sut, company } = build();

      await expect(sut.setCeremonyPolicy(CEO, 'Engineering', POLICY, '"dept-old-v1"')).rejects.toMatchObject({
        code: ErrorCode.VersionConflict,
      });
      expect(company.setCeremonyPolicy).not.toHaveBeenCalled();
    });

    it('should refuse with 4002 after one attempt when If-Match matched but the write lost the race', async () => {
      const { sut, company, published } = build();
      company.setCeremonyPolicy.mockResolvedValue(false);

      await expect(sut.clearCeremonyPolicy(CEO, 'Engineering', ETAG)).rejects.toMatchObject({
        code: ErrorCode.VersionConflict,
      });
      expect(company.setCeremonyPolicy).toHaveBeenCalledTimes(1);
      expect(published).toEqual([]);
    });

    it('should retry a lost race and clear the policy when no If-Match is given', async () => {
      const { sut, company } = build();
      company.setCeremonyPolicy.mockResolvedValueOnce(false).mockResolvedValueOnce(true);

      await sut.clearCeremonyPolicy(CEO, 'Engineering', '*');

      expect(company.setCeremonyPolicy).toHaveBeenCalledTimes(2);
      expect(company.setCeremonyPolicy).toHaveBeenLastCalledWith(ENGINEERING.id, 3, null);
    });

    it('should give up with 4002 after three lost races when writes keep colliding', async () => {
      const { sut, company } = build();
      company.setCeremonyPolicy.mockResolvedValue(false);

      await expect(sut.setCeremonyPolicy(CEO, 'Engineering', POLICY, undefined)).rejects.toMatchObject({
        code: ErrorCode.VersionConflict,
      });
      expect(company.setCeremonyPolicy).toHaveBeenCalledTimes(3);
    });

    it('should let a manager change their own department', async () => {
      const { sut, company } = build();
      company.setCeremonyPolicy.mockResolvedValue(true);
      const manager = actorContext({ role: HumanRole.Manager, department: 'engineering' });

      await expect(sut.setCeremonyPolicy(manager, 'Engineering', POLICY, undefined)).resolves.toMatchObject({
        policy: POLICY,
      });
    });

    it.each([
      ['another department', 'product'],
      ['no department', null],
    ])('should refuse with 1001 when a manager with %s writes', async (_, department) => {
      const { sut, company } = build();
      const manager = actorContext({ role: HumanRole.Manager, department });

      const error = await sut.setCeremonyPolicy(manager, 'Engineering', POLICY, undefined).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(ForbiddenError);
      expect(error).toMatchObject({ code: ErrorCode.Forbidden });
      expect(company.setCeremonyPolicy).not.toHaveBeenCalled();
    });

    it('should refuse with 3014 when the department is unknown', async () => {
      const { sut } = build();

      await expect(sut.clearCeremonyPolicy(CEO, 'Marketing', undefined)).rejects.toMatchObject({
        code: ErrorCode.DepartmentNotFound,
      });
    });
  });
});
