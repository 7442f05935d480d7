/**
 * Which noise sliders act under the config's method and decay (DESIGN.md §3 "Step", "Noise head"):
 * a slider that changes nothing is disabled, and this says why in a few words.
 */
import type { NoiseConfig } from '../../core/config';

export type NoiseSliderField = 'level' | 'std_min' | 'std_max' | 'decay_steps';

/** Why `field` does nothing under `noise`, or undefined when it acts. */
export function noiseSliderIdleReason(field: NoiseSliderField, noise: Pick<NoiseConfig, 'method' | 'decay'>): string | undefined {
  const { method, decay } = noise;
  if (method === 'ode') return 'ode samples without noise';
  switch (field) {
    case 'level':
      return method === 'noise' ? 'the noise head sets the std between σ min and σ max; a is unused' : undefined;
    case 'std_min':
    case 'std_max':
      return method === 'noise' ? undefined : `only the noise head (method noise) uses σ bounds; ${method} uses level a`;
    case 'decay_steps':
      return decay === 'constant' ? 'decay is constant' : undefined;
  }
}
