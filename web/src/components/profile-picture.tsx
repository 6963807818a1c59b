/**
 * A user's picture, or the first letter of their e-mail when there is none or when it does not load
 * (a mistyped URL, a host that went away): never the browser's broken-image sign.
 */
import { useEffect, useState, type ReactNode } from 'react';

/** The picture at `src`, else `initial`; `onBroken` hears whether the current `src` failed to load. */
export function ProfilePicture(props: { src: string | null | undefined; initial: ReactNode; className?: string; alt?: string; onBroken?: (broken: boolean) => void }) {
  const [broken, setBroken] = useState<string | null>(null);
  // A new address gets its own chance to load.
  useEffect(() => props.onBroken?.(!!props.src && broken === props.src), [props.src, broken]);
  if (!props.src || broken === props.src) return <>{props.initial}</>;
  const src = props.src;
  return <img className={props.className} src={src} alt={props.alt ?? ''} onError={() => setBroken(src)} />;
}
