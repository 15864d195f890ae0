/**
 * Distributes 1000 across variants the way the reference does when variants are saved: `fix`
 * variants keep their weight, the remainder is split evenly among `variable` ones, the leftover
 * going one each to the first of them. A set with no `variable` variant is kept exactly as given.
 */
export function normalizeVariantWeights<
  V extends { weight: number; weightType?: 'fix' | 'variable' | undefined },
>(variants: readonly V[]): V[] {
  const variable = variants.filter((v) => v.weightType !== 'fix');
  if (variable.length === 0) return variants.map((v) => ({ ...v }));
  const fixedTotal = variants.reduce((sum, v) => (v.weightType === 'fix' ? sum + v.weight : sum), 0);
  const remaining = Math.max(0, 1000 - fixedTotal);
  const each = Math.floor(remaining / variable.length);
  let leftover = remaining - each * variable.length;
  return variants.map((v) => {
    if (v.weightType === 'fix') return { ...v };
    const extra = leftover > 0 ? 1 : 0;
    leftover -= extra;
    return { ...v, weightType: 'variable', weight: each + extra };
  });
}

/** Returns the reason a variant set cannot be saved, or null. */
export function variantSetProblem(
  variants: readonly { name: string; weight: number; weightType?: string | undefined }[],
): string | null {
  const seen = new Set<string>();
  for (const v of variants) {
    if (seen.has(v.name)) return `variant names must be unique; "${v.name}" appears twice`;
    seen.add(v.name);
  }
  const fixedTotal = variants.reduce((sum, v) => (v.weightType === 'fix' ? sum + v.weight : sum), 0);
  const hasVariable = variants.some((v) => v.weightType !== 'fix');
  if (hasVariable && fixedTotal > 1000)
    return `the fixed variant weights add up to ${fixedTotal}, more than 1000`;
  return null;
}
