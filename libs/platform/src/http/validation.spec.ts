import { IsIn, IsInt, IsString, validate } from 'class-validator';

import { ErrorCode } from '@app/domain';

import { codedRule, codeOfFailures } from './validation';

class Coded {
  @IsIn(['a', 'b'], codedRule(ErrorCode.TrendPeriodInvalid))
  period: unknown = 'a';

  @IsIn(['x'], codedRule(ErrorCode.TrendMetricInvalid))
  metric: unknown = 'x';

  @IsString()
  plain: unknown = 'ok';

  @IsInt(codedRule(ErrorCode.ForecastHorizonOutOfRange))
  @IsIn([1, 2], codedRule(ErrorCode.ForecastHorizonOutOfRange))
  horizon: unknown = 1;
}

async function codeFor(changes: Partial<Coded>): Promise<ErrorCode> {
  return codeOfFailures(await validate(Object.assign(new Coded(), changes)));
}

describe(codeOfFailures.name, () => {
  it("should answer a coded constraint's code when it is the only failure", async () => {
    await expect(codeFor({ period: 'z' })).resolves.toBe(ErrorCode.TrendPeriodInvalid);
  });

  it('should answer the code when several failures all name it', async () => {
    await expect(codeFor({ horizon: 1.5 })).resolves.toBe(ErrorCode.ForecastHorizonOutOfRange);
  });

  it('should fall back to 2001 when failures name different codes or an uncoded rule fails', async () => {
    await expect(codeFor({ period: 'z', metric: 'y' })).resolves.toBe(ErrorCode.RequestValidationError);
    await expect(codeFor({ period: 'z', plain: 3 })).resolves.toBe(ErrorCode.RequestValidationError);
    await expect(codeFor({ plain: 3 })).resolves.toBe(ErrorCode.RequestValidationError);
  });
});
