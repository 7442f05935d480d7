/** Stage 3 is the studio's own PPO run; this says where it starts and how to keep it near the demos' policy. */
export function FineTuneSection() {
  return (
    <section className="panel recipe-section" data-testid="finetune-section">
      <h2>Stage 3: PPO fine-tuning</h2>
      <p className="muted small recipe-intro">
        A finished stage's policy becomes the model (see the Model panel); Train and Step above fine-tune it with PPO, charted in the Charts tab
        (a diffusion policy with DPPO's per-step objective: preset <span className="mono">dppo</span> or <span className="mono">dppo-manipulation</span> in the Config tab).
        Config <span className="mono">ppo.bc_coef</span> keeps the fine-tuned policy near the one it started from.
      </p>
    </section>
  );
}
