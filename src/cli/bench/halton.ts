/**
 * MuJoCo's mju_Halton (the radical inverse of `index` in `base`), in the same operations, so a
 * loop that writes testspeed's control noise from JavaScript needs no call into wasm per value.
 */
export function halton(index: number, base: number): number {
  let rest = index;
  let fraction = 1 / base;
  let value = 0;
  while (rest > 0) {
    const next = Math.trunc(rest / base);
    value += fraction * (rest - next * base);
    fraction /= base;
    rest = next;
  }
  return value;
}
