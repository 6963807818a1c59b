/** Loading skeletons: the shape of what is coming (a grid's header and rows) instead of a blank area. */

/** A grid-shaped placeholder while a table's columns load. */
export function GridSkeleton(props: { label: string; rows?: number }) {
  return (
    <div className="grid-skeleton" role="status" aria-label={props.label} aria-busy="true">
      {Array.from({ length: (props.rows ?? 8) + 1 }, (_, i) => (
        <div key={i} className={`grid-skeleton-row${i === 0 ? ' head' : ''}`}>
          {Array.from({ length: 5 }, (_, j) => (
            <span key={j} className="skeleton-bar" style={{ width: `${60 + ((i * 7 + j * 13) % 40)}%` }} />
          ))}
        </div>
      ))}
    </div>
  );
}
