/** The icons of the project tree and the tab strip: one per kind of entry (table, view, function...) and per panel. */
import type { LucideIcon } from 'lucide-react';
import {
  Blocks, Braces, Clock, Database, Eye, FileCog, History, Info, KeyRound, ListOrdered, Network, Palette, ShieldCheck, SquareFunction, SquareTerminal,
  Table2, TerminalSquare, Users, Workflow, Send, EyeOff,
} from 'lucide-react';
import type { TabType } from '../../stores/tabs';

const BY_TYPE: Record<string, LucideIcon> = { table: Table2, view: Eye, function: SquareFunction, procedure: Workflow, sequence: ListOrdered };

const BY_PANEL: Record<string, LucideIcon> = {
  info: Info, roles: Users, appStore: Blocks, meta: FileCog, audit: History, sqlClient: SquareTerminal, graphqlClient: Braces, grpcClient: Network,
  apiClient: Send, terminal: TerminalSquare, crons: Clock, acl: ShieldCheck, disableOrEnableModel: EyeOff, projectSettings: Palette,
};

/** The icon of a tree entry or tab: by its type, or by the panel's name. */
export function EntryIcon(props: { type: TabType | 'db' | 'key'; name?: string; size?: number }) {
  const Icon = props.type === 'panel' ? (BY_PANEL[props.name ?? ''] ?? Info) : props.type === 'db' ? Database : props.type === 'key' ? KeyRound : (BY_TYPE[props.type] ?? Table2);
  return <Icon size={props.size ?? 14} className="entry-icon" aria-hidden />;
}
