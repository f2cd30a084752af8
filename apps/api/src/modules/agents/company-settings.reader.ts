import { Injectable } from '@nestjs/common';

import { COMPANY_SINGLETON_ID, CompanyEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** The few company-wide values agent views need (currency), read without depending on the company module. */
@Injectable()
export class CompanySettingsReader {
  readonly defaultCurrency = 'EUR';

  constructor(private readonly database: DatabaseService) {}

  async currency(): Promise<string> {
    const row = await this.database.dataSource
      .getRepository(CompanyEntity)
      .findOne({ where: { id: COMPANY_SINGLETON_ID }, select: { id: true, currency: true } });
    return row?.currency ?? this.defaultCurrency;
  }
}
