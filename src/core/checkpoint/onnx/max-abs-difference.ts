/** max_i |a_i − b_i| between an export's actions and the policy's; Infinity when the lengths differ or a value is not finite, so a broken export never looks faithful. */
export function maxAbsDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Infinity;
  let max = 0;
  for (let index = 0; index < a.length; index++) {
    const difference = Math.abs(a[index] - b[index]);
    if (!Number.isFinite(difference)) return Infinity;
    max = Math.max(max, difference);
  }
  return max;
}
