/** The currency money is shown in while the company has not chosen one. */
export const DEFAULT_CURRENCY = 'EUR';

/**
 * The company-wide values that modules the company module depends on still need to read (the roster's
 * activity feed shows money in the company's currency). The company module binds it: a port instead
 * of an import, because the company module itself builds on the roster.
 */
export abstract class CompanyProfileReader {
  /** The company's currency, or DEFAULT_CURRENCY while there is no company. */
  abstract currency(): Promise<string>;
}
