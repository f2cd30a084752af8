import { Injectable } from '@nestjs/common';

import {
  mergeMeetingTypes,
  type MeetingType,
  parseCompanyMeetingTypes,
  parseDepartmentMeetingTypes,
} from '@app/domain';

import { CompanyService } from '../company';
import { SettingsSnapshot } from '../settings';

/**
 * The configured meeting types: the company's (`coordination.meeting_types`) and each department's,
 * from its effective ceremony policy (the `coordination.dept_ceremony_policies` override when it
 * names the department, else the department's own policy).
 */
@Injectable()
export class MeetingTypeCatalogue {
  constructor(
    private readonly company: CompanyService,
    private readonly settings: SettingsSnapshot,
  ) {}

  enabled(): boolean {
    return this.settings.value<boolean>('coordination', 'meetings_enabled');
  }

  async all(): Promise<MeetingType[]> {
    const company = parseCompanyMeetingTypes(this.settings.value('coordination', 'meeting_types'));
    const overrides = this.overrides();
    const departments = await this.company.departments();
    const perDepartment = departments.map((d) => {
      const key = Object.keys(overrides).find((name) => name.toLowerCase() === d.name.toLowerCase());
      const policy = key === undefined ? d.ceremony_policy : overrides[key];
      return parseDepartmentMeetingTypes(d.name, policy);
    });
    return mergeMeetingTypes([company, ...perDepartment]);
  }

  private overrides(): Record<string, unknown> {
    const value = this.settings.value('coordination', 'dept_ceremony_policies');
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  }
}
