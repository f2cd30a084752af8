import { Injectable } from '@nestjs/common';

import { BudgetAlertLevelEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** The alert level last announced per scope; the compare-and-set decides which replica announces. */
@Injectable()
export class BudgetAlertsRepository {
  constructor(private readonly database: DatabaseService) {}

  /**
   * Moves the scope's level to `rank`. Answers the previous rank when this call raised it (the
   * caller announces), null otherwise. A lower rank is stored silently, so the next rise fires again.
   */
  async raise(scope: string, rank: number, now: Date): Promise<number | null> {
    const rows = this.database.dataSource.getRepository(BudgetAlertLevelEntity);
    await rows.createQueryBuilder().insert().values({ scope, rank: 0, updatedAt: now }).orIgnore().execute();
    const current = await rows.findOneBy({ scope });
    const previous = current?.rank ?? 0;
    if (rank === previous) {
      return null;
    }
    const moved = await rows.update({ scope, rank: previous }, { rank, updatedAt: now });
    return (moved.affected ?? 0) > 0 && rank > previous ? previous : null;
  }
}
