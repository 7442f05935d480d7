import { useRecipeStore, type RecipeNoticePlace } from '../store/recipe-slice';

/** The flow's notice, under the section it belongs to; a stage failure the status line already shows is not repeated. */
export function RecipeNoticeLine({ place, testId }: { place: RecipeNoticePlace; testId: string }) {
  const notice = useRecipeStore((state) => (state.notice?.place === place ? state.notice : undefined));
  const failure = useRecipeStore((state) => (state.status?.phase === 'error' ? state.status.message : undefined));
  if (!notice || (place !== 'demos' && notice.text === failure)) return null;
  return (
    <p className={`notice notice-${notice.kind} recipe-notice`} role={notice.kind === 'error' ? 'alert' : 'status'} data-testid={testId}>
      <span>{notice.text}</span>
      <button className="link" onClick={() => useRecipeStore.getState().setNotice(undefined)}>dismiss</button>
    </p>
  );
}
