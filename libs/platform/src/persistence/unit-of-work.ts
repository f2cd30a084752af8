import { Injectable } from '@nestjs/common';

import { DatabaseService } from './database.service';
import { type Transaction, transactionOf } from './transaction';

/** Runs a service's writes in one transaction: it commits when the work resolves and rolls back when it throws. */
@Injectable()
export class UnitOfWork {
  constructor(private readonly database: DatabaseService) {}

  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.database.dataSource.transaction((manager) => work(transactionOf(manager)));
  }
}
