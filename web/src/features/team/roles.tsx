/**
 * Project roles: their names in the current language (the ids sent to the server stay) and the
 * role picker of the invite, token and member rows, a react-aria Select (arrow keys, type-ahead).
 */
import { Button, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';
import { t } from '../../i18n';
import './team.css';

/** The roles a member or token can have, highest first. */
export const ROLES = ['owner', 'creator', 'editor', 'commenter', 'viewer'] as const;

/** The roles the caller may give: the owner role only by an owner (or the Super Admin). */
export const grantableRoles = (owner: boolean, roles: readonly string[] = ROLES): readonly string[] => (owner ? roles : roles.filter((r) => r !== 'owner'));

/** A role's name in the current language; unknown (custom) roles show as they are. */
export function roleName(role: string): string {
  switch (role) {
    case 'owner': return t('admin.roles.owner');
    case 'creator': return t('admin.roles.creator');
    case 'editor': return t('admin.roles.editor');
    case 'commenter': return t('admin.roles.commenter');
    case 'viewer': return t('admin.roles.viewer');
    case 'guest': return t('admin.roles.guest');
    default: return role;
  }
}

/** A compact select of a role, named by `label`. */
export function RoleSelect(props: { label: string; value: string; onChange: (role: string) => void; roles?: readonly string[]; disabled?: boolean }) {
  return (
    <Select
      className="role-select"
      aria-label={props.label}
      selectedKey={props.value}
      isDisabled={props.disabled}
      onSelectionChange={(key) => key !== null && key !== props.value && props.onChange(String(key))}
    >
      <Button className="aria-select-button role-select-button">
        <SelectValue />
        <span aria-hidden>▾</span>
      </Button>
      <Popover className="aria-popover">
        <ListBox className="menu-list aria-menu">
          {(props.roles ?? ROLES).map((r) => (
            <ListBoxItem key={r} id={r} className="menu-item" textValue={roleName(r)}>
              {roleName(r)}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
}
