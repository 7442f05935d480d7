import type { ReactNode } from 'react';
import { selectOccupied, useRecipeStore } from '../store/recipe-slice';
import { DraftField, type DraftFieldSpec } from './DraftField';
import { RecipeControls } from './RecipeControls';
import { RecipeNoticeLine } from './RecipeNoticeLine';
import { RecipeProgress } from './RecipeProgress';
import { StageCharts } from './StageCharts';

export interface StageSectionProps<F extends 'pretrain' | 'offline'> {
  stage: F;
  title: string;
  /** One line on what the stage does. */
  intro: ReactNode;
  fields: DraftFieldSpec<F>[];
  startLabel: string;
  startTestId: string;
  start(): Promise<void>;
  /** Why the stage cannot start yet; undefined once it can. */
  blocked?: string;
  /** Controls above the form (stage 1's policy family). */
  head?: ReactNode;
}

/** A training stage: its form, its start button beside the pause/resume/export row, its progress and live charts. */
export function StageSection<F extends 'pretrain' | 'offline'>({ stage, title, intro, fields, startLabel, startTestId, start, blocked, head }: StageSectionProps<F>) {
  const occupied = useRecipeStore(selectOccupied);
  // One control row, under the training stage in hand; stage 1's until stage 2 has been started.
  const holdsControls = useRecipeStore((state) => (state.status?.stage === 'offline' ? 'offline' : 'pretrain') === stage);
  return (
    <section className={`panel recipe-section${blocked ? ' recipe-blocked' : ''}`} data-testid={`${stage}-section`}>
      <h2>{title}</h2>
      <p className="muted small recipe-intro">{intro}</p>
      {head}
      <div className="recipe-form">
        {fields.map((spec) => <DraftField key={spec.field} form={stage} spec={spec} />)}
      </div>
      <div className="row recipe-buttons">
        <button className="primary" data-testid={startTestId} disabled={occupied !== undefined || blocked !== undefined} title={blocked ?? occupied} onClick={() => void start()}>{startLabel}</button>
        {holdsControls && <RecipeControls />}
        {blocked && <span className="muted small" data-testid={`${stage}-blocked`}>{blocked}</span>}
      </div>
      <RecipeNoticeLine place={stage} testId={`${stage}-notice`} />
      <RecipeProgress stage={stage} testId={`${stage}-progress`} />
      <StageCharts stage={stage} />
    </section>
  );
}
