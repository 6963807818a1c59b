/**
 * The menu of a grid header (its ▾ button, or a right click on the header): a react-aria menu in a
 * popover under the button; arrows move, Enter runs, Esc closes and gives the focus back.
 */
import { useId, type ReactNode } from 'react';
import { ChevronDown } from 'lucide-react';
import { Button, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';

/** One command of a header menu. */
export interface MenuEntry {
  id: string;
  label: string;
  danger?: boolean;
  run: () => void;
}

export function HeaderMenu(props: { buttonLabel: string; menuLabel: string; entries: MenuEntry[]; isOpen: boolean; onOpenChange: (open: boolean) => void; icon?: ReactNode }) {
  // The menu is named by its own label ('Column Name'), not by the button that opens it.
  const labelId = useId();
  return (
    <MenuTrigger isOpen={props.isOpen} onOpenChange={props.onOpenChange}>
      <Button className="grid-th-menu" aria-label={props.buttonLabel}>
        {props.icon ?? <ChevronDown size={14} aria-hidden />}
      </Button>
      <Popover className="grid-menu-popover" placement="bottom start">
        <span id={labelId} hidden>{props.menuLabel}</span>
        <Menu className="menu-list grid-menu" aria-labelledby={labelId} onAction={(id) => props.entries.find((e) => e.id === id)?.run()}>
          {props.entries.map((e) => (
            <MenuItem key={e.id} id={e.id} className={`menu-item${e.danger ? ' menu-danger' : ''}`}>
              {e.label}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
