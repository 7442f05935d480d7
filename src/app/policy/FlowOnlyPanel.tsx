/** A flow-only panel for another family: its title and one line saying why it is empty. */
export function FlowOnlyPanel({ title, testId, text }: { title: string; testId: string; text: string }) {
  return (
    <section className="panel" data-testid={testId} data-flow-only="1">
      <h2>{title}</h2>
      <p className="muted" data-testid={`${testId}-flow-only`}>{text}</p>
    </section>
  );
}
