import { useRecipeStore, type RecipeDrafts } from '../store/recipe-slice';

export interface DraftFieldSpec<F extends keyof RecipeDrafts> {
  field: keyof RecipeDrafts[F] & string;
  label: string;
  /** What the value does, shown on hover. */
  doc: string;
  testId: string;
  /** The input's step; 'any' for rates and temperatures. */
  step?: number | 'any';
  min?: number;
}

/** One numeric field of a demos-flow form; its text lives in the recipe store until the form is sent. */
export function DraftField<F extends keyof RecipeDrafts>({ form, spec }: { form: F; spec: DraftFieldSpec<F> }) {
  const value = useRecipeStore((state) => (state.drafts[form] as Record<string, string>)[spec.field]);
  return (
    <label title={spec.doc}>
      <span>{spec.label}</span>
      <input type="number" inputMode="decimal" value={value} min={spec.min} step={spec.step ?? 1} data-testid={spec.testId}
        onChange={(event) => useRecipeStore.getState().setDraft(form, spec.field, event.target.value)} />
    </label>
  );
}
