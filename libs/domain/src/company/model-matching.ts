import type { ModelTier } from './enums';

/** A model some registered provider offers. */
export interface CatalogModel {
  provider: string;
  id: string;
  alias: string | null;
  costPer1kInput: number;
  costPer1kOutput: number;
}

/**
 * The model a role of the given tier gets when nobody chose one: the catalogue ordered by price,
 * the cheapest for small, the dearest for large, the middle one for medium. Null on an empty catalogue.
 */
export function pickModelForTier(models: readonly CatalogModel[], tier: ModelTier): CatalogModel | null {
  if (models.length === 0) {
    return null;
  }
  const sorted = [...models].sort(
    (a, b) =>
      a.costPer1kInput + a.costPer1kOutput - (b.costPer1kInput + b.costPer1kOutput) ||
      a.provider.localeCompare(b.provider) ||
      a.id.localeCompare(b.id),
  );
  const index = tier === 'small' ? 0 : tier === 'large' ? sorted.length - 1 : Math.floor((sorted.length - 1) / 2);
  return sorted[index];
}

/** Whether `ref` (an id or an alias) names one of the provider's models. */
export function findCatalogModel(
  models: readonly CatalogModel[],
  provider: string,
  ref: string,
): CatalogModel | undefined {
  return models.find((m) => m.provider === provider && (m.id === ref || m.alias === ref));
}
