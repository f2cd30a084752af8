import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';

import { CompanyProfileReader, DEFAULT_CURRENCY, nameKey } from '@app/domain';
import type { CompanyEntity, DepartmentEntity } from '@app/persistence';
import type { Transaction } from '@app/platform';

import { CompanyRepository } from './company.repository';

/** A department as a company plan shapes it: its head role and budget share. */
export interface DepartmentShape {
  name: string;
  head: string | null;
  budgetPercent: number;
}

/**
 * The company module's face for other modules: the company row and its departments. Writes accept
 * the caller's transaction, so a use case elsewhere (the setup wizard) writes them with its own rows.
 */
@Injectable()
export class CompanyFacade implements CompanyProfileReader {
  constructor(private readonly company: CompanyRepository) {}

  find(): Promise<CompanyEntity | null> {
    return this.company.findCompany();
  }

  async currency(): Promise<string> {
    return (await this.company.findCurrency()) ?? DEFAULT_CURRENCY;
  }

  async save(company: CompanyEntity, tx?: Transaction): Promise<void> {
    await this.company.saveCompany(company, tx);
  }

  /** Every department in display order (heads, teams and reporting lines: the org chart). */
  departments(): Promise<DepartmentEntity[]> {
    return this.company.allDepartments();
  }

  /** A department's share of the company budget in percent, by name key; 0 when it has none or is unknown. */
  async budgetPercentOf(key: string): Promise<number> {
    return (await this.company.findDepartment(key))?.budgetPercent ?? 0;
  }

  async departmentCount(): Promise<number> {
    return (await this.company.allDepartments()).length;
  }

  /** Replaces every department with these, in this order. */
  async replaceDepartments(shapes: readonly DepartmentShape[], tx: Transaction): Promise<void> {
    const now = new Date();
    await this.company.deleteAllDepartments(tx);
    await this.company.insertDepartments(
      shapes.map((shape, position) => newDepartment(shape, position, now)),
      tx,
    );
  }

  /** One department by name (case-insensitive), or null. */
  findDepartment(name: string): Promise<DepartmentEntity | null> {
    return this.company.findDepartment(nameKey(name));
  }

  /**
   * Sets a department's autonomy level (null: inherit). The security module is the only caller: it
   * checks who may write it and records the change.
   */
  async setDepartmentAutonomy(department: DepartmentEntity, level: string | null): Promise<DepartmentEntity> {
    await this.company.setAutonomyLevel(department.id, level);
    return { ...department, autonomyLevel: level, version: department.version + 1, updatedAt: new Date() };
  }

  /** Creates a department (at the end, no head, no budget share) when it is missing; true when it did. */
  async ensureDepartment(name: string, tx?: Transaction): Promise<boolean> {
    if (await this.company.findDepartment(nameKey(name), tx)) {
      return false;
    }
    const position = await this.company.nextDepartmentPosition(tx);
    await this.company.insertDepartments(
      [newDepartment({ name, head: null, budgetPercent: 0 }, position, new Date())],
      tx,
    );
    return true;
  }
}

function newDepartment(shape: DepartmentShape, position: number, now: Date): DepartmentEntity {
  return {
    id: randomUUID(),
    name: shape.name,
    nameKey: nameKey(shape.name),
    position,
    head: shape.head,
    budgetPercent: shape.budgetPercent,
    autonomyLevel: null,
    teams: [],
    reportingLines: [],
    policies: {},
    ceremonyPolicy: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}
