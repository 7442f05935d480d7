/**
 * Colours of the runs chosen for the chart overlay. A run keeps the colour it had when it is
 * selected again, as long as no other selected run took it meanwhile; a new run takes the first
 * palette colour no selected run uses, so a deselected run's colour is free for the next one.
 */

/** Ten colours that stay apart on white and from each other in thin lines. */
export const RUN_PALETTE: readonly string[] = [
  '#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed',
  '#0891b2', '#db2777', '#65a30d', '#92400e', '#475569',
];

/**
 * The colour for a run being selected. `remembered` is the colour it had before (if any),
 * `inUse` the colours of the runs selected now. With every colour in use it cycles on
 * `inUse.length`, so an eleventh run shares the first run's colour rather than failing.
 */
export function pickRunColour(remembered: string | undefined, inUse: readonly string[]): string {
  if (remembered !== undefined && !inUse.includes(remembered)) return remembered;
  const free = RUN_PALETTE.find((colour) => !inUse.includes(colour));
  return free ?? RUN_PALETTE[inUse.length % RUN_PALETTE.length];
}

/**
 * Colours for `ids` added to the selection in order, on top of the colours already assigned.
 * Returns the updated `remembered` map (the input is not changed).
 */
export function assignRunColours(
  ids: readonly string[],
  selected: readonly string[],
  remembered: Readonly<Record<string, string>>,
): Record<string, string> {
  const next = { ...remembered };
  const inUse = selected.map((id) => next[id]).filter((colour): colour is string => colour !== undefined);
  for (const id of ids) {
    const colour = pickRunColour(next[id], inUse);
    next[id] = colour;
    inUse.push(colour);
  }
  return next;
}
