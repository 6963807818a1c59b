/**
 * The icon and readable name of a column's type ('Single line text', not `SingleLineText`), shown
 * in grid headers, the expanded row and the fields menu.
 */
import type { LucideIcon } from 'lucide-react';
import {
  AlignLeft, Braces, Calculator, Calendar, CalendarClock, CircleChevronDown, Clock, DollarSign, Hash, KeyRound, Link2, ListChecks, Mail, Paperclip,
  Percent, Phone, Search, Sigma, SquareCheck, Star, Timer, Type,
} from 'lucide-react';
import { COLUMN_TYPES, VIRTUAL_TYPES } from '../schema/column-types';
import { t } from '../../i18n';

const ICONS: Record<string, LucideIcon> = {
  ID: KeyRound, SingleLineText: Type, LongText: AlignLeft, Number: Hash, Decimal: Hash, Currency: DollarSign, Percent, Rating: Star, Duration: Timer,
  Checkbox: SquareCheck, Date: Calendar, DateTime: CalendarClock, Time: Clock, Email: Mail, URL: Link2, PhoneNumber: Phone, SingleSelect: CircleChevronDown,
  MultiSelect: ListChecks, JSON: Braces, Attachment: Paperclip, Links: Link2, Formula: Calculator, Rollup: Sigma, Lookup: Search, ForeignKey: Link2,
};

/** 'SingleLineText' -> 'Single line text' (the column form's label when it has one). */
export function typeLabel(uidt: string): string {
  const known = COLUMN_TYPES.find((t) => t.uidt === uidt)?.label ?? VIRTUAL_TYPES.find((t) => t.uidt === uidt)?.label;
  if (uidt === 'Links') return t('grid.type.link');
  if (known) return known;
  if (/^[A-Z]+$/.test(uidt)) return uidt;
  const words = uidt.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The type's icon (decorative: the name goes with it, in a tooltip and for screen readers). */
export function TypeIcon(props: { uidt: string; size?: number }) {
  const Icon = ICONS[props.uidt] ?? Type;
  return <Icon size={props.size ?? 13} className="type-icon" aria-hidden />;
}
