/** A horizontal span between two px positions (either order) across the plot's height: the selected window, the brush. */
export function SpanRect({ span, top, bottom, className, testId }: { span: readonly [number, number] | null; top: number; bottom: number; className: string; testId?: string }) {
  if (!span) return null;
  return <rect data-testid={testId} x={Math.min(span[0], span[1])} width={Math.abs(span[1] - span[0])} y={top} height={bottom - top} className={className} />;
}
