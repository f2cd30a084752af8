import { Channel, ErrorCode, INITIAL_PROJECT_STATUS } from '@app/domain';
import { EventBus } from '@app/platform';
import { actorContext, agentRow, makeServiceUnderTest, projectRow, recordPublished, rawRowOf } from '@app/testing';

import { AgentRoster } from '../agents';
import type { CreateProjectDto } from './dto/project.dto';
import { type ProjectRow, ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';

const ACTOR = actorContext();
const ADA = agentRow({ name: 'Ada' });
const BOB = agentRow({ name: 'Bob' });
const APOLLO = projectRow({ name: 'Apollo' });

/** No project stored yet (Apollo only where a test seeds it); Ada and Bob on the roster. */
function build() {
  const unit = makeServiceUnderTest(ProjectsService);
  const m = {
    sut: unit.sut,
    projects: unit.mock(ProjectsRepository),
    agents: unit.mock(AgentRoster),
    published: recordPublished(unit.mock(EventBus)),
  };
  m.projects.findById.mockResolvedValue(null);
  m.projects.findByName.mockResolvedValue(null);
  m.projects.insert.mockResolvedValue();
  m.agents.findByRef.mockImplementation((ref) =>
    Promise.resolve([ADA, BOB].find((a) => a.id === ref || a.nameKey === ref.toLowerCase()) ?? null),
  );
  return m;
}

function dto(overrides: Partial<CreateProjectDto> = {}): CreateProjectDto {
  return { name: 'Apollo', ...overrides };
}

describe(ProjectsService.name, () => {
  describe('create', () => {
    it('should create the project in its initial status with the lead first in the team and announce it', async () => {
      const { sut, projects, published } = build();

      const project = await sut.create(ACTOR, dto({ name: ' Apollo ', lead: 'ada', team: ['Bob', 'bob', ADA.id] }));

      expect(project).toMatchObject({
        name: 'Apollo',
        status: INITIAL_PROJECT_STATUS,
        lead: ADA.id,
        team: [BOB.id, ADA.id],
        budget: 0,
        description: '',
        deadline: null,
      });
      expect(project.id).toMatch(/^proj-[0-9a-f]{12}$/);
      expect(projects.insert).toHaveBeenCalledWith(expect.objectContaining({ nameKey: 'apollo' }));
      expect(published).toEqual([
        expect.objectContaining({ channel: Channel.Projects, event_type: 'project.created', payload: { project } }),
      ]);
    });

    it('should read a null lead as no lead', async () => {
      const { sut } = build();

      await expect(sut.create(ACTOR, dto({ lead: null, team: ['Bob'] }))).resolves.toMatchObject({ lead: null });
    });

    it('should put the lead at the head of the team when the team leaves the lead out', async () => {
      const { sut } = build();

      await expect(sut.create(ACTOR, dto({ lead: 'Ada', team: ['Bob'] }))).resolves.toMatchObject({
        team: [ADA.id, BOB.id],
      });
    });

    it('should take a null lead as no lead', async () => {
      const { sut } = build();

      await expect(sut.create(ACTOR, dto({ lead: null as unknown as string, team: ['Bob'] }))).resolves.toMatchObject({
        lead: null,
        team: [BOB.id],
      });
    });

    it('should refuse with 4001 when the name is taken in any case', async () => {
      const { sut, projects } = build();
      projects.findByName.mockResolvedValue(APOLLO);

      await expect(sut.create(ACTOR, dto({ name: 'APOLLO' }))).rejects.toMatchObject({
        code: ErrorCode.DuplicateRecord,
      });
      expect(projects.findByName).toHaveBeenCalledWith('apollo');
      expect(projects.insert).not.toHaveBeenCalled();
    });

    it('should refuse with 4001 when a concurrent create wins the insert', async () => {
      const { sut, projects, published } = build();
      projects.insert.mockRejectedValue(new Error('UNIQUE constraint failed'));
      projects.findByName.mockResolvedValueOnce(null).mockResolvedValueOnce(APOLLO);

      await expect(sut.create(ACTOR, dto())).rejects.toMatchObject({ code: ErrorCode.DuplicateRecord });
      expect(published).toEqual([]);
    });

    it('should pass the insert failure on when no other project took the name', async () => {
      const { sut, projects } = build();
      projects.insert.mockRejectedValue(new Error('disk I/O error'));

      await expect(sut.create(ACTOR, dto())).rejects.toThrow('disk I/O error');
    });

    it.each([
      ['the name is blank', { name: '  ' }],
      ['the lead is not on the roster', { lead: 'Zed' }],
      ['a team member is not on the roster', { team: ['Ada', 'Zed'] }],
    ])('should refuse with 2001 and write nothing when %s', async (_, overrides: Partial<CreateProjectDto>) => {
      const { sut, projects } = build();

      await expect(sut.create(ACTOR, dto(overrides))).rejects.toMatchObject({
        code: ErrorCode.RequestValidationError,
      });
      expect(projects.insert).not.toHaveBeenCalled();
    });
  });

  describe('reads', () => {
    it('should resolve a project by id, then by case-insensitive name', async () => {
      const { sut, projects } = build();
      projects.findByName.mockImplementation((key) => Promise.resolve(key === 'apollo' ? APOLLO : null));

      await expect(sut.resolveId('Apollo')).resolves.toBe(APOLLO.id);
      expect(projects.findById).toHaveBeenCalledWith('Apollo');
    });

    it('should refuse with 3003 when neither id nor name matches', async () => {
      const { sut } = build();

      await expect(sut.resolveId('ghost')).rejects.toMatchObject({ code: ErrorCode.ProjectNotFound });
      await expect(sut.get('proj-ghost')).rejects.toMatchObject({ code: ErrorCode.ProjectNotFound });
    });

    it('should filter the list by the parsed status and lead when they are given', async () => {
      const { sut, projects } = build();
      projects.page.mockResolvedValue({ items: [rawRowOf<ProjectRow>(APOLLO)], total: 1 });

      const page = await sut.list({ status: ' Active ', lead: ADA.id }, { offset: 0, limit: 10 });

      expect(projects.page).toHaveBeenCalledWith({ status: 'active', lead: ADA.id }, { offset: 0, limit: 10 });
      expect(page).toMatchObject({ total: 1, items: [{ name: 'Apollo' }] });
    });

    it('should refuse with 2001 when the status filter is unknown', async () => {
      const { sut, projects } = build();

      await expect(sut.list({ status: 'dormant' }, { offset: 0, limit: 10 })).rejects.toMatchObject({
        code: ErrorCode.RequestValidationError,
      });
      expect(projects.page).not.toHaveBeenCalled();
    });
  });
});
