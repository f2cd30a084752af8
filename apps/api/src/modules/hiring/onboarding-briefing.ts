import { Injectable } from '@nestjs/common';

import type { OnboardingStepName } from '@app/domain';
import type { AgentEntity } from '@app/persistence';

import { AgentRoster } from '../agents';
import { CompanyFacade, ProjectsService } from '../company';

/** Projects and colleagues named in a briefing at most. */
const BRIEFING_ITEMS = 20;

/**
 * What an onboarding step's task tells the new agent: read when the step's task is made, from the
 * company, its department and its projects as they are then.
 */
@Injectable()
export class OnboardingBriefing {
  constructor(
    private readonly company: CompanyFacade,
    private readonly projects: ProjectsService,
    private readonly roster: AgentRoster,
  ) {}

  async forStep(agent: AgentEntity, step: OnboardingStepName): Promise<string> {
    const company = await this.company.find();
    const intro =
      `You have just joined ${company?.name ?? 'the company'} as ${agent.role} (${agent.level}) in the ` +
      `${agent.department} department. This is your onboarding step "${step}": read the briefing below ` +
      'and answer with a short summary of what it means for your work. Do not change any file.';
    return `${intro}\n\n${await this.section(agent, step)}`;
  }

  private async section(agent: AgentEntity, step: OnboardingStepName): Promise<string> {
    switch (step) {
      case 'company_context':
        return this.companyContext();
      case 'project_briefing':
        return this.projectBriefing();
      case 'team_introductions':
        return this.team(agent);
    }
  }

  private async companyContext(): Promise<string> {
    const [company, departments, currency] = await Promise.all([
      this.company.find(),
      this.company.departments(),
      this.company.currency(),
    ]);
    if (!company) {
      return 'Company: not set up yet.';
    }
    const lines = [
      `Company: ${company.name} (${company.type})`,
      company.description ? `About: ${company.description}` : null,
      `Autonomy: ${company.autonomyLevel}; workflow: ${company.workflow}`,
      `Monthly budget: ${company.budgetMonthly} ${currency}`,
      `Departments: ${departments.map((d) => `${d.name} (${d.budgetPercent}% of the budget)`).join(', ') || 'none'}`,
    ];
    return lines.filter((line) => line !== null).join('\n');
  }

  private async projectBriefing(): Promise<string> {
    const page = await this.projects.list({}, { offset: 0, limit: BRIEFING_ITEMS });
    if (page.items.length === 0) {
      return 'Projects: the company has no projects yet.';
    }
    return [
      'Projects:',
      ...page.items.map((p) => `- ${p.name} (${p.status}): ${p.description || 'no description'}`),
    ].join('\n');
  }

  private async team(agent: AgentEntity): Promise<string> {
    const colleagues = (await this.roster.findByDepartment(agent.department))
      .filter((other) => other.id !== agent.id && other.status !== 'terminated')
      .slice(0, BRIEFING_ITEMS);
    if (colleagues.length === 0) {
      return `Team: you are the first agent of ${agent.department}.`;
    }
    return [`Your team in ${agent.department}:`, ...colleagues.map((c) => `- ${c.name}, ${c.role} (${c.level})`)].join(
      '\n',
    );
  }
}
