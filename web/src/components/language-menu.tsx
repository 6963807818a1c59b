/**
 * Choosing the interface language: a menu in the top bar and a select in the Appearance settings.
 * Both switch the whole app at once; the choice is kept per user (stores/settings).
 */
import { Languages } from 'lucide-react';
import { Button, Label, ListBox, ListBoxItem, Menu, MenuItem, MenuTrigger, Popover, Select, SelectValue } from 'react-aria-components';
import { locale, LOCALES, t, type LocaleCode } from '../i18n';
import { useSignals } from '../stores/signals';
import { WithTooltip } from './tooltip';

/** The globe button of the top bar and its menu of languages (each in its own name). */
export function LanguageMenu() {
  useSignals();
  return (
    <MenuTrigger>
      <WithTooltip tip={t('common.language.menu')}>
        <Button className="icon-btn" aria-label={t('common.language.menu')}>
          <Languages size={16} aria-hidden />
        </Button>
      </WithTooltip>
      <Popover placement="bottom end" className="aria-popover">
        <Menu
          className="menu-list aria-menu"
          aria-label={t('common.language.menu')}
          selectionMode="single"
          selectedKeys={[locale.value]}
          onAction={(key) => (locale.value = key as LocaleCode)}
        >
          {LOCALES.map((l) => (
            <MenuItem key={l.code} id={l.code} className="menu-item" lang={l.tag}>
              {({ isSelected }) => (
                <>
                  <span className="menu-check" aria-hidden>{isSelected ? '✓' : ''}</span>
                  {l.name}
                </>
              )}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

/** The language field of the Appearance settings. */
export function LanguageSelect() {
  useSignals();
  return (
    <Select className="field aria-select" selectedKey={locale.value} onSelectionChange={(key) => key && (locale.value = key as LocaleCode)}>
      <Label>{t('common.language.label')}</Label>
      <Button className="aria-select-button">
        <SelectValue />
        <span aria-hidden>▾</span>
      </Button>
      <Popover className="aria-popover">
        <ListBox className="menu-list aria-menu">
          {LOCALES.map((l) => (
            <ListBoxItem key={l.code} id={l.code} className="menu-item" textValue={l.name} lang={l.tag}>
              {l.name}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
}
