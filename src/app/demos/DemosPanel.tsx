import { useEffect } from 'react';
import { usePolicyKind } from '../policy/use-policy-kind';
import { useRecipeStore } from '../store/recipe-slice';
import { DemonstrationsSection } from './DemonstrationsSection';
import { FineTuneSection } from './FineTuneSection';
import { refreshRecipeStatus, startOffline, startPretrain } from './recipe-actions';
import { RecipeStatusLine } from './RecipeStatusLine';
import { StageSection } from './StageSection';
import { OFFLINE_FIELDS, PRETRAIN_FIELDS } from './stage-fields';
import { PretrainPolicyRow } from './PretrainPolicyRow';

const FLOW_BC = 'Flow-matching behaviour cloning of the held demos, with the config\'s policy; the result becomes the model.';
const DIFFUSION_BC = 'ε-prediction (DDPM) behaviour cloning of the held demos, as DPPO pretrains, with the config\'s policy; the result becomes the model, and Train fine-tunes it with DPPO (preset dppo).';

/**
 * The "New from demos" tab (DESIGN.md §1 journey 7, §12): demonstrations, stage 1 BC,
 * optional stage 2, then the studio's PPO run as stage 3.
 */
export function DemosPanel() {
  const hasDemos = useRecipeStore((state) => state.status?.demos !== undefined);
  const hasPolicy = useRecipeStore((state) => state.status?.policyStage !== undefined);
  const diffusion = usePolicyKind() === 'diffusion';
  useEffect(() => {
    // Events keep the status current; this covers a tab opened before the first one.
    if (!useRecipeStore.getState().status) void refreshRecipeStatus();
  }, []);
  return (
    <div className="demos-panel" data-testid="demos-panel">
      <RecipeStatusLine />
      <DemonstrationsSection />
      <StageSection stage="pretrain" title="Stage 1: BC pretraining" fields={PRETRAIN_FIELDS} startLabel="Pretrain" startTestId="pretrain-start" start={startPretrain}
        intro={diffusion ? DIFFUSION_BC : FLOW_BC} head={<PretrainPolicyRow />}
        blocked={hasDemos ? undefined : 'Record or drop demos first.'} />
      <StageSection stage="offline" title="Stage 2 (optional): advantage-weighted BC" fields={OFFLINE_FIELDS} startLabel="Start stage 2" startTestId="offline-start" start={startOffline}
        intro="Rolls out the stage-1 policy, fits a critic on those episodes and the demos, then continues BC with each sample weighted by exp(Â/β); the result becomes the model."
        blocked={diffusion ? 'Stage 2 fine-tunes flow policies: a diffusion policy goes from stage 1 to Train (DPPO).' : hasPolicy ? undefined : 'Pretrain (stage 1) first.'} />
      <FineTuneSection />
    </div>
  );
}
