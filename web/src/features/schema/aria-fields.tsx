/**
 * The react-aria fields of the schema forms, in the look of their native fields: a select with
 * sections (the column type picker), a combo box (a table to link, typed to filter) and an on/off
 * switch. Keyboard: arrows, typeahead, Enter, Esc; screen readers hear the label and the value.
 */
import type { ReactNode } from 'react';
import {
  Button, ComboBox, Header, Input, Label, ListBox, ListBoxItem, ListBoxSection, Popover, Select, SelectValue, Switch,
} from 'react-aria-components';
import './schema.css';

/** An entry of a picker: its key and what it shows. */
export interface PickItem {
  id: string;
  label: string;
}

/** A group of entries under a heading. */
export interface PickSection {
  heading: string;
  items: PickItem[];
}

function Item(props: { item: PickItem }) {
  return (
    <ListBoxItem id={props.item.id} className="menu-item" textValue={props.item.label}>
      {props.item.label}
    </ListBoxItem>
  );
}

/** A labelled select of entries, grouped in sections (entries outside any section come first). */
export function SectionSelect(props: { label: string; value: string; loose?: PickItem[]; sections: PickSection[]; onChange: (v: string) => void; isDisabled?: boolean; name?: string }) {
  return (
    <Select
      className="field aria-select schema-select"
      name={props.name}
      selectedKey={props.value || null}
      isDisabled={props.isDisabled}
      onSelectionChange={(key) => key !== null && props.onChange(String(key))}
    >
      <Label>{props.label}</Label>
      <Button className="aria-select-button">
        <SelectValue />
        <span aria-hidden>▾</span>
      </Button>
      <Popover className="aria-popover schema-select-popover" placement="bottom start">
        <ListBox className="menu-list aria-menu schema-select-list">
          {(props.loose ?? []).map((it) => <Item key={it.id} item={it} />)}
          {props.sections.map((s) => (
            <ListBoxSection key={s.heading} className="schema-select-section">
              <Header className="schema-select-header">{s.heading}</Header>
              {s.items.map((it) => <Item key={it.id} item={it} />)}
            </ListBoxSection>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
}

/** A labelled combo box: type to filter the entries, pick one with the arrows and Enter or a click. */
export function PickCombo(props: { label: string; value: string; items: PickItem[]; onChange: (v: string) => void; placeholder?: string; isDisabled?: boolean; openLabel: string }) {
  return (
    <ComboBox
      className="field schema-combo"
      selectedKey={props.value || null}
      isDisabled={props.isDisabled}
      menuTrigger="focus"
      defaultItems={props.items}
      onSelectionChange={(key) => key !== null && props.onChange(String(key))}
    >
      <Label>{props.label}</Label>
      <div className="schema-combo-input">
        <Input placeholder={props.placeholder} />
        <Button className="schema-combo-button" aria-label={props.openLabel}>
          <span aria-hidden>▾</span>
        </Button>
      </div>
      <Popover className="aria-popover schema-select-popover" placement="bottom start">
        <ListBox className="menu-list aria-menu schema-select-list">{(it: PickItem) => <Item item={it} />}</ListBox>
      </Popover>
    </ComboBox>
  );
}

/** An on/off switch with its label. */
export function OnOff(props: { isSelected: boolean; onChange: (on: boolean) => void; isDisabled?: boolean; children: ReactNode }) {
  return (
    <Switch className="schema-switch" isSelected={props.isSelected} onChange={props.onChange} isDisabled={props.isDisabled}>
      <span className="schema-switch-track" aria-hidden />
      {props.children}
    </Switch>
  );
}
