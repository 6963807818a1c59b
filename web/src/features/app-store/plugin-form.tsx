/**
 * The install / configure form of one plugin, generated from its field list (the server reads it
 * from the plugin's zod schema): text, number, checkbox and choice inputs, secrets as password
 * inputs showing the mask. Test, Save and Uninstall; SMTP's Test asks for an address.
 */
import { useState } from 'react';
import { appStoreApi, type Plugin, type PluginField } from '../../api/app-store';
import { Button, FormMessage } from '../../components/form';
import { track } from '../../stores/notifications';
import { user } from '../../stores/session';

const initial = (p: Plugin): Record<string, unknown> =>
  Object.fromEntries(p.fields.map((f) => [f.name, p.input?.[f.name] ?? f.default ?? (f.type === 'boolean' ? false : '')]));

function FieldInput(props: { field: PluginField; value: unknown; onChange: (v: unknown) => void }) {
  const { field: f, value } = props;
  const label = `${f.label}${f.required ? ' *' : ''}`;
  if (f.type === 'boolean') {
    return <label className="checkbox-field"><input type="checkbox" aria-label={f.label} checked={!!value} onChange={(e) => props.onChange(e.target.checked)} /> {f.label}</label>;
  }
  if (f.type === 'enum') {
    return <label className="field">{label}<select aria-label={f.label} value={String(value ?? '')} onChange={(e) => props.onChange(e.target.value)}>{(f.options ?? []).map((o) => <option key={o}>{o}</option>)}</select></label>;
  }
  return (
    <label className="field">
      {label}
      <input
        aria-label={f.label}
        type={f.secret ? 'password' : f.type === 'number' ? 'number' : 'text'}
        autoComplete={f.secret ? 'new-password' : 'off'}
        value={String(value ?? '')}
        onChange={(e) => props.onChange(f.type === 'number' && e.target.value !== '' ? Number(e.target.value) : e.target.value)}
      />
    </label>
  );
}

export function PluginForm(props: { plugin: Plugin; onDone: () => void; onCancel: () => void }) {
  const p = props.plugin;
  const [input, setInput] = useState<Record<string, unknown>>(() => initial(p));
  const [active, setActive] = useState(p.installed ? p.active : true);
  const [testTo, setTestTo] = useState(user.value?.email ?? '');
  const [logo, setLogo] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
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
  const test = () => run(async () => setResult((await appStoreApi.test(p.title, input, p.title === 'SMTP' ? testTo : undefined)).msg));
  const save = () =>
    run(async () => {
      await track(`${p.title} saved`, logo ? appStoreApi.saveWithLogo(input, logo) : appStoreApi.save(p.title, input, active));
      props.onDone();
    });
  const uninstall = () =>
    run(async () => {
      await track(`${p.title} uninstalled`, appStoreApi.uninstall(p.title));
      props.onDone();
    });
  return (
    <div className="dialog-backdrop" onClick={props.onCancel}>
      <form className="dialog plugin-form" role="dialog" aria-modal="true" aria-label={`Configure ${p.title}`} noValidate onClick={(e) => e.stopPropagation()} onSubmit={(e) => { e.preventDefault(); void save(); }}>
        <h2>{p.installed ? 'Configure' : 'Install'} {p.title}</h2>
        <p className="muted">{p.description}</p>
        {p.fields.map((f) => <FieldInput key={f.name} field={f} value={input[f.name]} onChange={(v) => setInput({ ...input, [f.name]: v })} />)}
        {p.title === 'Branding' ? <label className="field">Logo file (PNG, JPEG, GIF, WebP or SVG)<input type="file" aria-label="Logo file" accept="image/*" onChange={(e) => setLogo(e.target.files?.[0] ?? null)} /></label> : null}
        {p.category !== 'Branding' ? <label className="checkbox-field"><input type="checkbox" aria-label="Active" checked={active} onChange={(e) => setActive(e.target.checked)} /> Active{p.category === 'Email' || p.category === 'Storage' ? ` (turns off the other ${p.category.toLowerCase()} plugin)` : ''}</label> : null}
        {p.title === 'SMTP' ? <label className="field">Send the test mail to<input aria-label="Test address" value={testTo} onChange={(e) => setTestTo(e.target.value)} /></label> : null}
        <FormMessage kind="error" text={error} />
        <FormMessage kind="success" text={result} />
        <div className="dialog-actions">
          {p.installed ? <Button variant="danger" onClick={() => void uninstall()} disabled={busy}>Uninstall</Button> : null}
          <span className="spacer" />
          <Button variant="secondary" onClick={props.onCancel}>Cancel</Button>
          <Button variant="secondary" onClick={() => void test()} disabled={busy}>Test</Button>
          <Button type="submit" disabled={busy}>Save</Button>
        </div>
      </form>
    </div>
  );
}
