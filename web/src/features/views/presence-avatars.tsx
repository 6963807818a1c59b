/**
 * Who else shows this table: small coloured avatars with their initials (at most five, then "+N"),
 * each named by the member's e-mail (tooltip and accessible name), in a group labelled "Also here: …".
 */
import { useSignals } from '../../stores/signals';
import { presence, type PresenceUser } from '../../stores/presence';
import { t } from '../../i18n';

const SHOWN = 5;

/** Up to two letters: of the name's first two words, else of the e-mail's first two parts before the @. */
export function initialsOf(u: PresenceUser): string {
  const words = (u.name?.trim() || u.email.split('@')[0]!).split(/[\s._-]+/).filter(Boolean);
  const letters = words.length > 1 ? words[0]![0]! + words[1]![0]! : (words[0] ?? '?').slice(0, 1);
  return letters.toUpperCase();
}

const nameOf = (u: PresenceUser) => (u.name ? `${u.name} (${u.email})` : u.email);

export function PresenceAvatars(props: { table: string }) {
  useSignals();
  const users = presence.value[props.table] ?? [];
  if (!users.length) return null;
  const shown = users.slice(0, SHOWN);
  const rest = users.slice(SHOWN);
  return (
    <div className="presence" role="group" aria-label={t('views.presence.label', { names: users.map(nameOf).join(', ') })} data-testid="presence">
      {shown.map((u) => (
        <span key={u.id} className="presence-avatar" role="img" aria-label={nameOf(u)} title={nameOf(u)} style={{ background: u.color }}>
          {initialsOf(u)}
        </span>
      ))}
      {rest.length ? (
        <span className="presence-avatar presence-more" role="img" aria-label={t('views.presence.more', { count: rest.length, names: rest.map(nameOf).join(', ') })} title={rest.map(nameOf).join(', ')}>
          +{rest.length}
        </span>
      ) : null}
    </div>
  );
}
