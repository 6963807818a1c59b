/**
 * The grid toolbar's More menu (react-aria: arrow keys, typing, Esc; focus back on the button), for
 * a toolbar too narrow for every action as a button (toolbar-fit.ts): webhooks, import, export as
 * CSV or XLSX, and on a phone the row height and the grouping as choices with a tick.
 */
import { MoreHorizontal } from 'lucide-react';
import { Button, Header, Menu, MenuItem, MenuSection, MenuTrigger, Popover, Separator } from 'react-aria-components';
import type { RowHeight } from '../../api/views';
import type { GridStore } from './grid-store';
import type { GridColumn } from './grid-columns';
import { heightLabel, HEIGHTS } from './row-height-menu';
import { t } from '../../i18n';
import { WithTooltip } from '../../components/tooltip';

export function GridMoreMenu(props: {
  store: GridStore;
  /** The columns to group by; none: the pickers stay in the toolbar. */
  groupColumns?: GridColumn[];
  webhooks?: () => void;
  importInto?: () => void;
  exportAs: (format: 'csv' | 'xlsx') => void;
  exportBusy: boolean;
}) {
  const { store } = props;
  const run = (id: string) => {
    if (id === 'webhooks') props.webhooks?.();
    else if (id === 'import') props.importInto?.();
    else if (id === 'csv' || id === 'xlsx') props.exportAs(id);
  };
  const check = (on: boolean) => <span className="menu-check" aria-hidden>{on ? '✓' : ''}</span>;
  return (
    <MenuTrigger>
      <WithTooltip tip={t('grid.toolbar.more')}>
        <Button className="btn btn-secondary grid-more" aria-label={t('grid.toolbar.more')}>
          <MoreHorizontal size={16} aria-hidden />
        </Button>
      </WithTooltip>
      <Popover placement="bottom end" containerPadding={8} className="aria-popover grid-more-popover">
        <Menu className="menu-list aria-menu grid-more-menu" aria-label={t('grid.toolbar.more')} onAction={(id) => run(String(id))}>
          {props.groupColumns ? (
            <>
              <MenuSection selectionMode="single" disallowEmptySelection selectedKeys={[store.rowHeight.value]} onSelectionChange={(keys) => keys !== 'all' && keys.size && store.setRowHeight([...keys][0] as RowHeight)}>
                <Header className="menu-header">{t('grid.rowHeight.label')}</Header>
                {HEIGHTS.map((h) => (
                  <MenuItem key={h} id={h} className="menu-item" textValue={heightLabel(h)}>
                    {({ isSelected }) => (
                      <>
                        {check(isSelected)}
                        {heightLabel(h)}
                      </>
                    )}
                  </MenuItem>
                ))}
              </MenuSection>
              <Separator className="menu-sep" />
              <MenuSection
                selectionMode="single"
                disallowEmptySelection
                selectedKeys={[`group:${store.groupBy.value ?? ''}`]}
                onSelectionChange={(keys) => keys !== 'all' && keys.size && store.setGroupBy(String([...keys][0]).slice('group:'.length) || undefined)}
              >
                <Header className="menu-header">{t('grid.group.label')}</Header>
                {[{ id: 'group:', label: t('grid.group.none') }, ...props.groupColumns.map((c) => ({ id: `group:${c._cn}`, label: c._cn }))].map((o) => (
                  <MenuItem key={o.id} id={o.id} className="menu-item" textValue={o.label}>
                    {({ isSelected }) => (
                      <>
                        {check(isSelected)}
                        {o.label}
                      </>
                    )}
                  </MenuItem>
                ))}
              </MenuSection>
              <Separator className="menu-sep" />
            </>
          ) : null}
          <MenuSection>
            {props.webhooks ? <MenuItem id="webhooks" className="menu-item">{t('grid.toolbar.webhooks')}</MenuItem> : null}
            {props.importInto ? <MenuItem id="import" className="menu-item">{t('tools.transfer.import')}</MenuItem> : null}
            <MenuItem id="csv" className="menu-item" isDisabled={props.exportBusy}>{t('app.command.exportCsv')}</MenuItem>
            <MenuItem id="xlsx" className="menu-item" isDisabled={props.exportBusy}>{t('app.command.exportXlsx')}</MenuItem>
          </MenuSection>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
