/**
 * The install / configure form of one plugin, generated from its field list (the server reads it
 * from the plugin's zod schema): text, number, checkbox and choice inputs, secrets as password
 * inputs showing the mask (a chat plugin's webhook URL can be shown in full: Show values). Test, Save
 * and Uninstall; SMTP's Test asks for an address. A react-aria
 * modal dialog: focus stays inside, Esc or a click outside cancels, focus returns to the card.
 */
import { useState } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { appStoreApi, type Plugin, type PluginField } from '../../api/app-store';
import { Button, FormMessage } from '../../components/form';
import { ConfirmButton } from '../../components/confirm-button';
import { t } from '../../i18n';
import { pluginDescription, pluginFieldLabel, pluginName } from './plugin-description';
import { track } from '../../stores/notifications';
import { user } from '../../stores/session';
import { ToggleSwitch } from '../hooks/toggle-switch';
import './app-store.css';

/** What the server shows in place of a saved secret; sent back, it keeps the saved value. */
const SECRET_MASK = '••••••••'; // i18n-ignore

const initial = (p: Plugin): Record<string, unknown> =>
  Object.fromEntries(p.fields.map((f) => [f.name, p.input?.[f.name] ?? f.default ?? (f.type === 'boolean' ? false : '')]));

/** One field of the plugin's own definition, labelled in the current language. */
function FieldInput(props: { plugin: Plugin; field: PluginField; value: unknown; onChange: (v: unknown) => void; shown?: boolean }) {
  const { field: f, value } = props;
  const name = pluginFieldLabel(props.plugin, f);
  const label = f.required ? t('admin.appStore.requiredField', { label: name }) : name;
  if (f.type === 'boolean') {
    return <label className="checkbox-field"><input type="checkbox" aria-label={name} checked={!!value} onChange={(e) => props.onChange(e.target.checked)} /> {name}</label>;
  }
  if (f.type === 'enum') {
    return <label className="field">{label}<select aria-label={name} value={String(value ?? '')} onChange={(e) => props.onChange(e.target.value)}>{(f.options ?? []).map((o) => <option key={o}>{o}</option>)}</select></label>;
  }
  return (
    <label className="field">
      {label}
      <input
        aria-label={name}
        type={f.secret && !props.shown ? 'password' : f.type === 'number' ? 'number' : 'text'}
        autoComplete={f.secret ? 'new-password' : 'off'}
        value={String(value ?? '')}
        onChange={(e) => props.onChange(f.type === 'number' && e.target.value !== '' ? Number(e.target.value) : e.target.value)}
      />
    </label>
  );
}

/** The text beside the Active switch: Email and Storage plugins turn the other one of their kind off. */
const activeText = (category: string) =>
  category === 'Email' ? t('admin.appStore.activeEmail') : category === 'Storage' ? t('admin.appStore.activeStorage') : t('admin.appStore.active');

export function PluginForm(props: { plugin: Plugin; onDone: () => void; onCancel: () => void }) {
  const p = props.plugin;
  const [input, setInput] = useState<Record<string, unknown>>(() => initial(p));
  const [active, setActive] = useState(p.installed ? p.active : true);
  const [testTo, setTestTo] = useState(user.value?.email ?? '');
  const [logo, setLogo] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** Secret fields read in full (Show values): shown as text. */
  const [shown, setShown] = useState<ReadonlySet<string>>(new Set());
  const masked = p.category === 'Chat' && p.fields.some((f) => f.secret && input[f.name] === SECRET_MASK);
  const run = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      await fn();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const reveal = () =>
    run(async () => {
      const plain = await appStoreApi.secrets(p.title);
      // Fields typed meanwhile stay; those still masked show their saved value.
      setInput((now) => ({ ...now, ...Object.fromEntries(Object.entries(plain).filter(([k]) => now[k] === SECRET_MASK)) }));
      setShown(new Set(Object.keys(plain)));
    });
  const test = () => run(async () => setResult((await appStoreApi.test(p.title, input, p.title === 'SMTP' ? testTo : undefined)).msg));
  const save = () =>
    run(async () => {
      await track(t('admin.appStore.saveOp', { title: pluginName(p) }), logo ? appStoreApi.saveWithLogo(input, logo) : appStoreApi.save(p.title, input, active), t('admin.appStore.saved', { title: pluginName(p) }));
      props.onDone();
    });
  const uninstall = () =>
    run(async () => {
      await track(t('admin.appStore.uninstallOp', { title: pluginName(p) }), appStoreApi.uninstall(p.title), t('admin.appStore.uninstalled', { title: pluginName(p) }));
      props.onDone();
    });
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && props.onCancel()} className="dialog-backdrop">
      <Modal className="dialog plugin-form">
        <Dialog className="aria-dialog" aria-label={t('admin.appStore.configureTitle', { title: pluginName(p) })}>
          <form className="plugin-form-body" noValidate onSubmit={(e) => { e.preventDefault(); void save(); }}>
            <Heading slot="title">{p.installed ? t('admin.appStore.configureTitle', { title: pluginName(p) }) : t('admin.appStore.installTitle', { title: pluginName(p) })}</Heading>
            <p className="muted">{pluginDescription(p)}</p>
            {p.fields.map((f) => <FieldInput key={f.name} plugin={p} field={f} value={input[f.name]} shown={shown.has(f.name)} onChange={(v) => setInput({ ...input, [f.name]: v })} />)}
            {masked ? (
              <p className="muted plugin-secret-masked">
                {t('admin.appStore.webhookUrlMasked')}{' '}
                <Button variant="ghost" onClick={() => void reveal()} disabled={busy}>{t('admin.appStore.showValues')}</Button>
              </p>
            ) : null}
            {p.title === 'Branding' ? (
              <label className="field">
                {t('admin.appStore.logoFile')}
                <input type="file" aria-label={t('admin.appStore.logoFileLabel')} accept="image/*" onChange={(e) => setLogo(e.target.files?.[0] ?? null)} />
              </label>
            ) : null}
            {p.category !== 'Branding' ? (
              <ToggleSwitch className="checkbox-field" aria-label={t('admin.appStore.active')} isSelected={active} onChange={setActive}>
                {activeText(p.category)}
              </ToggleSwitch>
            ) : null}
            {p.title === 'SMTP' ? (
              <label className="field">
                {t('admin.appStore.testTo')}
                <input aria-label={t('admin.appStore.testAddress')} value={testTo} onChange={(e) => setTestTo(e.target.value)} />
              </label>
            ) : null}
            <FormMessage kind="error" text={error} />
            <FormMessage kind="success" text={result} />
            <div className="dialog-actions">
              {p.installed ? (
                <ConfirmButton
                  variant="danger"
                  label={t('admin.appStore.uninstall')}
                  heading={t('admin.appStore.uninstallHeading', { title: pluginName(p) })}
                  body={t('admin.appStore.uninstallBody')}
                  onConfirm={() => void uninstall()}
                  disabled={busy}
                />
              ) : null}
              <span className="spacer" />
              <Button variant="secondary" onClick={props.onCancel}>{t('admin.common.cancel')}</Button>
              <Button variant="secondary" onClick={() => void test()} disabled={busy}>{t('admin.appStore.test')}</Button>
              <Button type="submit" disabled={busy}>{t('admin.common.save')}</Button>
            </div>
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
