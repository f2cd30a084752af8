import { ErrorCode, HumanRole } from '@app/domain';
import type { DepartmentEntity, HiringCandidateEntry, HiringRequestEntity } from '@app/persistence';
import { EventBus } from '@app/platform';
import { actorContext, makeServiceUnderTest } from '@app/testing';

import { ApprovalsService } from '../approvals';
import { AuditTrail } from '../audit';
import { CompanyFacade } from '../company';
import { SettingsSnapshot } from '../settings';
import { CandidateBuilder } from './candidate-builder';
import { HiringBudget } from './hiring-budget';
import { HiringRepository } from './hiring.repository';
import { HiringService } from './hiring.service';

const CEO = actorContext({ username: 'ceo' });
const MANAGER = actorContext({ username: 'mia', role: HumanRole.Manager, department: 'engineering' });

const CANDIDATE: HiringCandidateEntry = {
  id: 'cand-1',
  name: 'Mara Quint',
  role: 'Backend Developer',
  department: 'engineering',
  level: 'mid',
  skills: ['go'],
  rationale: 'built for the request',
  estimatedMonthlyCost: 12.5,
  templateSource: null,
  personalityPreset: 'pragmatic_builder',
  modelProvider: 'mock',
  modelId: 'mock-small',
  modelTier: 'medium',
};

const BODY = {
  department: 'Engineering',
  role: ' Backend Developer ',
  level: 'mid' as const,
  required_skills: ['go', ' go '],
  reason: 'More APIs',
};

function pendingRow(overrides: Partial<HiringRequestEntity> = {}): HiringRequestEntity {
  const at = new Date('2026-01-01T00:00:00Z');
  return {
    id: 'req-1',
    requestedBy: 'mia',
    department: 'engineering',
    role: 'Backend Developer',
    level: 'mid',
    requiredSkills: ['go'],
    reason: 'More APIs',
    budgetLimitMonthly: null,
    templateName: null,
    status: 'pending',
    candidates: [CANDIDATE],
    selectedCandidateId: 'cand-1',
    approvalId: 'appr-1',
    decidedBy: null,
    decisionReason: null,
    agentId: null,
    version: 1,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

function build(secondApproval = false) {
  const unit = makeServiceUnderTest(HiringService);
  const m = {
    sut: unit.sut,
    requests: unit.mock(HiringRepository),
    candidates: unit.mock(CandidateBuilder),
    company: unit.mock(CompanyFacade),
    budget: unit.mock(HiringBudget),
    approvals: unit.mock(ApprovalsService),
    settings: unit.mock(SettingsSnapshot),
    audit: unit.mock(AuditTrail),
    bus: unit.mock(EventBus),
  };
  m.company.findDepartment.mockImplementation((key) =>
    Promise.resolve(key === 'engineering' ? ({ name: 'engineering', budgetPercent: 60 } as DepartmentEntity) : null),
  );
  m.company.find.mockResolvedValue(null);
  m.budget.assertFits.mockResolvedValue(undefined);
  m.candidates.build.mockResolvedValue([CANDIDATE]);
  m.settings.value.mockReturnValue(secondApproval);
  m.requests.insert.mockResolvedValue(undefined);
  m.approvals.fileRequest.mockResolvedValue({} as never);
  m.audit.record.mockResolvedValue(null);
  m.bus.publish.mockResolvedValue(undefined);
  m.requests.update.mockImplementation((base, changes) =>
    Promise.resolve({ ...base, ...changes, version: base.version + 1 }),
  );
  return m;
}

describe(HiringService.name, () => {
  describe('file', () => {
    it("should approve a manager's request by its filing, with the candidates built from the trimmed request", async () => {
      const m = build();

      const req = await m.sut.file({ kind: 'person', actor: MANAGER }, BODY);

      expect(m.candidates.build).toHaveBeenCalledWith({
        department: 'engineering',
        role: 'Backend Developer',
        level: 'mid',
        skills: ['go'],
        template: null,
      });
      expect(req).toMatchObject({
        status: 'approved',
        decided_by: 'mia',
        approval_id: null,
        selected_candidate_id: 'cand-1',
      });
      expect(m.approvals.fileRequest).not.toHaveBeenCalled();
      expect(m.audit.record).toHaveBeenCalledWith(
        expect.objectContaining({ action: 'hiring.requested', actor: 'mia' }),
      );
    });

    it('should queue an org:hire item with the candidate and its cost when a second person must decide', async () => {
      const m = build(true);

      const req = await m.sut.file({ kind: 'person', actor: CEO }, BODY);

      expect(req.status).toBe('pending');
      const item = m.approvals.fileRequest.mock.calls[0][0];
      expect(item).toMatchObject({
        id: req.approval_id,
        actionType: 'org:hire',
        department: 'engineering',
        metadata: expect.objectContaining({
          hiring_request_id: req.id,
          candidate_name: 'Mara Quint',
          estimated_monthly_cost: '12.5',
        }),
      });
    });

    it("should leave an agent's request pending whatever the setting", async () => {
      const m = build(false);

      const req = await m.sut.file({ kind: 'agent', agentId: 'agent-1', name: 'Ada' }, BODY);

      expect(req).toMatchObject({ status: 'pending', requested_by: 'agent:Ada' });
      expect(m.approvals.fileRequest.mock.calls[0][0].requestedBy).toBe('agent-1');
    });

    it.each([
      [
        'a manager outside their department',
        MANAGER,
        { department: 'product' },
        ErrorCode.HiringOutsideManagedDepartment,
      ],
      ['an unknown department', CEO, { department: 'nowhere' }, ErrorCode.HiringDepartmentUnknown],
      ['a blank role', CEO, { role: '  ' }, ErrorCode.HiringRequestBlank],
      ['a blank skill', CEO, { required_skills: [' '] }, ErrorCode.HiringRequestBlank],
    ])('should refuse %s and store nothing', async (_what, actor, change, code) => {
      const m = build();
      m.company.findDepartment.mockImplementation((key) =>
        Promise.resolve(key === 'nowhere' ? null : ({ name: key, budgetPercent: 20 } as DepartmentEntity)),
      );

      await expect(m.sut.file({ kind: 'person', actor }, { ...BODY, ...change })).rejects.toMatchObject({ code });
      expect(m.requests.insert).not.toHaveBeenCalled();
    });
  });

  describe('decided', () => {
    it('should approve the request when another person approved its item', async () => {
      const m = build();
      m.requests.findByApproval.mockResolvedValue(pendingRow());

      await m.sut.decided({ id: 'appr-1', status: 'approved', decidedBy: 'ceo', reason: 'yes' });

      expect(m.requests.update).toHaveBeenCalledWith(
        expect.objectContaining({ id: 'req-1' }),
        expect.objectContaining({ status: 'approved', decidedBy: 'ceo' }),
      );
    });

    it.each([
      ['approved by the person who filed it', { status: 'approved', decidedBy: 'mia' }],
      ['rejected', { status: 'rejected', decidedBy: 'ceo' }],
      ['expired', { status: 'expired', decidedBy: 'system' }],
      ['approved by the timeout policy', { status: 'approved', decidedBy: 'system' }],
    ])('should reject the request when its item was %s', async (_what, decision) => {
      const m = build();
      m.requests.findByApproval.mockResolvedValue(pendingRow());

      await m.sut.decided({ id: 'appr-1', reason: null, ...decision });

      expect(m.requests.update).toHaveBeenCalledWith(
        expect.anything(),
        expect.objectContaining({ status: 'rejected' }),
      );
    });

    it('should leave a request that is no longer pending, and announce nothing when another replica applied it', async () => {
      const m = build();
      m.requests.findByApproval.mockResolvedValue(pendingRow({ status: 'approved' }));
      await m.sut.decided({ id: 'appr-1', status: 'rejected', decidedBy: 'ceo', reason: null });
      expect(m.requests.update).not.toHaveBeenCalled();

      m.requests.findByApproval.mockResolvedValue(pendingRow());
      m.requests.update.mockResolvedValue(null);
      await m.sut.decided({ id: 'appr-1', status: 'approved', decidedBy: 'ceo', reason: null });
      expect(m.bus.publish).not.toHaveBeenCalled();
      expect(m.audit.record).not.toHaveBeenCalled();
    });
  });

  describe('select', () => {
    it('should refuse an unknown candidate with 2982 and a rejected request with 4081', async () => {
      const m = build();
      m.requests.findById.mockResolvedValue(pendingRow());
      await expect(m.sut.select(CEO, 'req-1', 'nope')).rejects.toMatchObject({
        code: ErrorCode.HiringCandidateUnknown,
      });
      m.requests.findById.mockResolvedValue(pendingRow({ status: 'rejected' }));
      await expect(m.sut.select(CEO, 'req-1', 'cand-1')).rejects.toMatchObject({
        code: ErrorCode.HiringRequestRejected,
      });
    });
  });
});
