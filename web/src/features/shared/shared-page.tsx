/**
 * The public page of a shared view (#/nc/view/:uuid, and #/shared/:uuid for links made before): no sign-in and no dashboard around it. It asks
 * for the link's password when it has one (kept for this browser session only), then shows the
 * view read-only with a search box (grid, gallery, kanban, calendar) or the form to submit.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useParams } from 'react-router-dom';
import { Download, Lock } from 'lucide-react';
import { INVALID_PASSWORD, SharedError, isLinkLost, isPasswordRefusal, sharedApi, sharedPassword, type SharedViewMeta } from '../../api/shared';
import { Button, FormMessage } from '../../components/form';
import { SharedGrid } from './shared-grid';
import { sharedDisplayColumn, sharedRowSource } from './shared-source';
import { GalleryBoard } from '../gallery/gallery-board';
import { KanbanBoard } from '../kanban/kanban-board';
import { CalendarBoard } from '../calendar/calendar-board';
import { useAnchor } from '../calendar/calendar';
import type { CalendarRange } from '../calendar/calendar-range';
import { FormFill } from '../form/form-fill';
import { formSpecOf } from '../form/form-spec';
import { aliasQueryParams, CARD_FIELDS_BY_DEFAULT, cardFields, shownFields } from '../views/view-state';
import { VIEW_ICONS } from '../views/views-drawer';
import { t } from '../../i18n';
import { useLatest } from '../../components/use-latest-answer';
import { useSharedRecord } from './shared-record';
import { shownViewTitle } from '../views/views-store';

type State = { kind: 'loading' } | { kind: 'password'; error: string | null } | { kind: 'error'; message: string } | { kind: 'ready'; meta: SharedViewMeta; password: string | null };

/** The page at #/nc/view/:uuid (and #/shared/:uuid). */
export function SharedViewPage() {
  const { uuid = '' } = useParams();
  const [state, setState] = useState<State>({ kind: 'loading' });
  // The answer for the view (and password) asked last: following a link to another shared view drops the first one's.
  const latest = useLatest();
  const open = async (password: string | null, typed: boolean) => {
    const current = latest.begin();
    try {
      const answer = await sharedApi.meta(uuid, password);
      if (!current()) return;
      const meta = { ...answer, title: shownViewTitle(answer.title, answer.isDefault) };
      if (password) sharedPassword.set(uuid, password);
      setState({ kind: 'ready', meta, password });
      document.title = `${meta.title} · Tablo`;
    } catch (e) {
      if (!current()) return;
      const err = e as SharedError;
      if (err.status === 429) setState({ kind: 'password', error: err.message });
      else if (isPasswordRefusal(err)) {
        sharedPassword.clear(uuid);
        setState({ kind: 'password', error: typed || password ? err.message || INVALID_PASSWORD : null });
      } else if (err.status === 404) setState({ kind: 'error', message: t('views.shared.notFound') });
      // Another refusal (the link's creator lost the table or left the project) is not a password to ask for.
      else setState({ kind: 'error', message: err.message });
    }
  };
  /** A read or a submission of the open view refused: the link was deleted, or its password changed. */
  const lost = (err: SharedError) => {
    latest.begin();
    if (err.status === 404) return setState({ kind: 'error', message: t('views.shared.notFound') });
    sharedPassword.clear(uuid);
    setState({ kind: 'password', error: err.message || INVALID_PASSWORD });
  };
  useEffect(() => void open(sharedPassword.get(uuid), false), [uuid]);
  return (
    <div className="shared-page">
      <header className="shared-top">
        <span className="brand-mark" aria-hidden>▦</span> <span className="shared-brand">{/* i18n-ignore */}Tablo</span>
        {state.kind === 'ready' ? <SharedTitle meta={state.meta} /> : null}
      </header>
      <main className="shared-main">
        {state.kind === 'loading' ? <p className="muted">{t('views.shared.opening')}</p> : null}
        {state.kind === 'error' ? (
          <div className="empty-state" role="alert">
            <h2>{t('views.shared.cannotOpen')}</h2>
            <p className="muted">{state.message}</p>
          </div>
        ) : null}
        {state.kind === 'password' ? <PasswordPrompt error={state.error} onSubmit={(p) => void open(p, true)} /> : null}
        {state.kind === 'ready' ? <SharedBody uuid={uuid} meta={state.meta} password={state.password} onLost={lost} /> : null}
      </main>
    </div>
  );
}

/** #/nc/view without a link code: the link was cut short (no sign-in page: strangers open these links). */
export function SharedLinkIncompletePage() {
  return (
    <div className="shared-page">
      <header className="shared-top">
        <span className="brand-mark" aria-hidden>▦</span> <span className="shared-brand">{/* i18n-ignore */}Tablo</span>
      </header>
      <main className="shared-main">
        <div className="empty-state" role="alert">
          <h2>{t('views.shared.incompleteTitle')}</h2>
          <p className="muted">{t('views.shared.incompleteBody')}</p>
        </div>
      </main>
    </div>
  );
}

function SharedTitle(props: { meta: SharedViewMeta }) {
  const Icon = VIEW_ICONS[props.meta.type];
  return (
    <h1 className="shared-title">
      {Icon ? <Icon size={18} aria-hidden /> : null} {props.meta.title}
    </h1>
  );
}

function PasswordPrompt(props: { error: string | null; onSubmit: (password: string) => void }) {
  const [password, setPassword] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (password) props.onSubmit(password);
  };
  return (
    <form className="form-card password-card" onSubmit={submit} aria-label={t('views.shared.protectedLabel')}>
      <h2><Lock size={18} aria-hidden /> {t('views.shared.protected')}</h2>
      <p className="muted">{t('views.shared.enterPassword')}</p>
      <div className="field">
        <label htmlFor="shared-password">{t('views.share.password')}</label>
        <input id="shared-password" type="password" autoFocus value={password} onChange={(e) => setPassword(e.target.value)} />
      </div>
      <FormMessage kind="error" text={props.error} />
      <Button type="submit" disabled={!password}>{t('views.shared.open')}</Button>
    </form>
  );
}

function SharedBody(props: { uuid: string; meta: SharedViewMeta; password: string | null; onLost: (e: SharedError) => void }) {
  const { meta, uuid, password } = props;
  const onLost = useRef(props.onLost);
  onLost.current = props.onLost;
  const source = useMemo(() => sharedRowSource(uuid, password, meta, (e) => onLost.current(e)), [uuid, password, meta]);
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  const [csvError, setCsvError] = useState<string | null>(null);
  const qp = aliasQueryParams(meta.query_params ?? {}, meta.columns);
  const display = sharedDisplayColumn(meta);
  const [range, setRange] = useState<CalendarRange>(qp.calendarRange ?? 'month');
  const [anchor, setAnchor] = useAnchor(`shared.${uuid}`);
  const record = useSharedRecord(meta, display);
  if (meta.type === 'form') {
    const spec = formSpecOf(qp.form, meta.columns, meta.title);
    return (
      <div className="form-stage shared-form">
        <div className="shared-form-column">
          {/* Said before anything is typed: no answer could be sent (the server would refuse it). */}
          {meta.formMissesRequired ? <div className="read-only-note" role="note">{t('views.shared.formCannotSend')}</div> : null}
          <FormFill
            spec={spec}
            columns={meta.columns}
            upload={meta.formMissesRequired ? undefined : (column, file, onProgress) => sharedApi.upload(uuid, password, column, file, onProgress).catch((e) => { if (isLinkLost(e)) props.onLost(e); throw e; })}
            onSubmit={meta.formMissesRequired ? undefined : (row) => sharedApi.submit(uuid, password, row).catch((e) => { if (isLinkLost(e)) props.onLost(e); throw e; })}
          />
        </div>
      </div>
    );
  }
  const names = meta.columns.map((c) => c._cn);
  const layout = [qp.groupBy, qp.coverColumn, qp.dateColumn, qp.endDateColumn].filter((n) => meta.type !== 'grid' && !!n);
  const fields = shownFields(cardFields(names, qp.fields, CARD_FIELDS_BY_DEFAULT[meta.type as keyof typeof CARD_FIELDS_BY_DEFAULT] ?? names.length, meta.columns.filter((c) => c.pk).map((c) => c._cn))).filter((f) => !layout.includes(f));
  const csv = async () => {
    try {
      // The rows on screen: a search typed and applied narrows the file too.
      const blob = await sharedApi.csv(uuid, password, search);
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = `${meta.title}.csv`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
      setCsvError(null);
    } catch (e) {
      setCsvError((e as Error).message);
    }
  };
  const lane = meta.columns.find((c) => c._cn === qp.groupBy || c.cn === qp.groupBy);
  const date = meta.columns.find((c) => c._cn === qp.dateColumn || c.cn === qp.dateColumn);
  const end = meta.columns.find((c) => c._cn === qp.endDateColumn || c.cn === qp.endDateColumn);
  return (
    <div className="shared-view">
      <div className="grid-toolbar">
        <form className="query-toolbar" onSubmit={(e) => (e.preventDefault(), setSearch(typed))} role="search">
          <input className="grid-search" aria-label={t('views.query.search')} placeholder={t('views.query.search')} value={typed} onChange={(e) => setTyped(e.target.value)} />
          <Button variant="secondary" type="submit">{t('views.query.search')}</Button>
        </form>
        {meta.allowCsvDownload ? (
          <Button variant="secondary" onClick={() => void csv()}>
            <Download size={14} aria-hidden /> {t('views.shared.downloadCsv')}
          </Button>
        ) : null}
      </div>
      <FormMessage kind="error" text={csvError} />
      {meta.type === 'grid' ? <SharedGrid uuid={uuid} password={password} meta={meta} source={source} search={search} onOpen={record.openRow} /> : null}
      {meta.type === 'gallery' ? (
        <GalleryBoard source={source} columns={meta.columns} displayColumn={display} coverColumn={qp.coverColumn && names.includes(qp.coverColumn) ? qp.coverColumn : undefined} fields={fields} where="" sort="" search={search} onOpen={record.openRow} />
      ) : null}
      {meta.type === 'kanban' && lane ? <KanbanBoard source={source} columns={meta.columns} column={lane} displayColumn={display} qp={{ ...qp, where: '', sort: '' }} fields={fields} search={search} onOpen={record.openRow} /> : null}
      {meta.type === 'calendar' && date ? (
        <CalendarBoard source={source} dateColumn={date} endColumn={end} displayColumn={display} fields={fields} where="" sort="" search={search} range={range} anchor={anchor} onRange={setRange} onAnchor={setAnchor} onOpen={record.openRow} />
      ) : null}
      {(meta.type === 'kanban' && !lane) || (meta.type === 'calendar' && !date) ? <p className="muted">{t('views.shared.layoutNotShared')}</p> : null}
      {record.dialog}
    </div>
  );
}
