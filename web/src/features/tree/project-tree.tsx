/**
 * The project tree: environments (the active one marked 'Active Env'), each database with its
 * Tables, Views, Functions, Procedures and Sequences, loaded when a group opens; 20 items at a
 * time with a way to show more, and a find field once a group holds more than that; the spec's info
 * toast for an empty group.
 */
import { useEffect, useState } from 'react';
import { dashboardApi, type EnvDb, type EnvList } from '../../api/dashboard';
import { HttpError } from '../../api/http';
import { LIMITS } from '../../lib/limits';
import { toast } from '../../stores/toasts';
import { ChangeEnvButton } from './change-env';
import { MetaSyncButton } from './meta-sync-button';
import { openTab, type TabType } from '../../stores/tabs';
import { PanelLeaf, ProjectExtras } from './project-extras';
import { isProjectAdmin } from '../../stores/project';
import { TableLeaf, TablesActions } from './table-leaf';
import { schemaGeneration } from '../../stores/schema-ui';
import { projectEnvs } from '../../stores/project-reads';
import { includeM2M } from '../../stores/settings';
import { useSignals } from '../../stores/signals';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { EntryIcon } from './tree-icons';
import { TreeFind, matchesFind } from './tree-find';
import { t } from '../../i18n';
import { engineName } from '../../lib/engine-names';
import { useLatest } from '../../components/use-latest-answer';

/** A tree entry: `name` opens it (display name), `tn` is the SQL name of a table. */
interface Item { name: string; title: string; type: TabType; tn?: string; junction?: boolean; /** Whether the caller may add rows (tables). */ canCreate?: boolean; /** Why a view cannot be read. */ broken?: string }
type GroupKind = 'Tables' | 'Views' | 'Functions' | 'Procedures' | 'Sequences';

/** The group's name in the current language. */
function groupName(kind: GroupKind): string {
  switch (kind) {
    case 'Tables':
      return t('schema.tree.tables');
    case 'Views':
      return t('schema.tree.views');
    case 'Functions':
      return t('schema.tree.functions');
    case 'Procedures':
      return t('schema.tree.procedures');
    case 'Sequences':
      return t('schema.tree.sequences');
  }
}

/** The info toast of an empty group. */
function emptyText(kind: GroupKind): string {
  switch (kind) {
    case 'Tables':
      return t('schema.tree.noTables');
    case 'Views':
      return t('schema.tree.noViews');
    case 'Functions':
      return t('schema.tree.noFunctions');
    case 'Procedures':
      return t('schema.tree.noProcedures');
    case 'Sequences':
      return t('schema.tree.noSequences');
  }
}


async function loadGroup(projectId: string, dbAlias: string, kind: GroupKind): Promise<Item[]> {
  switch (kind) {
    case 'Tables':
      // Many-to-many link tables are read too: listed when the user's setting includeM2M says so, else counted beside the list.
      return (await dashboardApi.tables(projectId, dbAlias, true)).map((t) => ({ name: t._tn, title: t._tn, type: 'table', tn: t.tn, junction: t.isJunction, canCreate: t.canCreate }));
    case 'Views':
      return (await dashboardApi.views(projectId, dbAlias)).map((t) => ({ name: t._tn, title: t._tn, type: 'view', broken: t.broken }));
    case 'Functions':
      return (await dashboardApi.routines(projectId, dbAlias, 'functionList')).map((r) => ({ name: r.name, title: r.name, type: 'function' }));
    case 'Procedures':
      return (await dashboardApi.routines(projectId, dbAlias, 'procedureList')).map((r) => ({ name: r.name, title: r.name, type: 'procedure' }));
    case 'Sequences':
      return (await dashboardApi.routines(projectId, dbAlias, 'sequenceList')).map((r) => ({ name: r.name, title: r.name, type: 'sequence' }));
  }
}

/** True when the project no longer has the database (removed meanwhile, by this user or another). */
async function databaseGone(projectId: string, dbAlias: string): Promise<boolean> {
  const envs = await dashboardApi.envs(projectId).catch(() => null);
  return !!envs && !Object.values(envs.envs).some((e) => e.dbs.some((d) => d.dbAlias === dbAlias));
}

function Group(props: { projectId: string; dbAlias: string; kind: GroupKind; initiallyOpen?: boolean; generation: number }) {
  useSignals();
  const [open, setOpen] = useState(!!props.initiallyOpen);
  const [all, setItems] = useState<Item[] | null>(null);
  const listed = all ? (includeM2M.value ? all : all.filter((i) => !i.junction)) : null;
  const links = all ? all.length - listed!.length : 0;
  const [shown, setShown] = useState<number>(LIMITS.treePageSize);
  // A database of hundreds of tables: a name is found by typing, not by showing 20 more again and again.
  const [find, setFind] = useState('');
  // Why the list could not be read (the database is down): said in the group, with a way to read it again.
  const [failed, setFailed] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const items = listed && find.trim() ? listed.filter((i) => matchesFind(i, find)) : listed;
  // The schema generation the list was read at: a schema change reads an open list again.
  const [loadedAt, setLoadedAt] = useState<number | null>(null);
  // Two schema changes in a row read twice: the list read first, answered last, does not stay.
  const latest = useLatest();
  useEffect(() => {
    if (!open || loadedAt === props.generation) return;
    setFailed(null);
    void latest(
      loadGroup(props.projectId, props.dbAlias, props.kind),
      (list) => {
        setItems(list);
        if (list.length === 0 && loadedAt === null) toast('info', emptyText(props.kind), LIMITS.toastMs.info);
        setLoadedAt(props.generation);
      },
      (e) => {
        if (e instanceof HttpError && e.status === 404) {
          setOpen(false);
          // A database removed meanwhile leaves the tree with its next read, and a project without its default
          // one goes to /project/0, which says so: the server's 'not found' would only repeat it.
          void databaseGone(props.projectId, props.dbAlias).then((gone) => gone || toast('error', e.message));
          return;
        }
        setFailed(e.message);
        toast('error', e.message);
      },
    );
  }, [open, props.generation, attempt]);
  const openItem = (it: Item) => {
    const refused = openTab({ type: it.type, name: it.name, dbAlias: props.dbAlias, title: it.title });
    if (refused) toast('error', refused, LIMITS.toastMs.long);
  };
  return (
    <li className={props.kind === 'Tables' ? 'tree-group has-actions' : 'tree-group'}>
      <button className="tree-node" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="tree-caret">{open ? <ChevronDown size={14} aria-hidden /> : <ChevronRight size={14} aria-hidden />}</span> {groupName(props.kind)}
        {listed ? <span className="tree-count">{listed.length}</span> : null}
      </button>
      {links ? (
        // Beside the group's button (not in its name): many-to-many link tables are not listed, but not forgotten.
        <span className="tree-links muted" title={t('schema.tree.linkTablesHidden', { count: links, names: all!.filter((i) => i.junction).map((i) => i.title).join(', ') })}>
          {t('schema.tree.linkTables', { count: links })}
        </span>
      ) : null}
      {props.kind === 'Tables' ? <TablesActions scope={{ projectId: props.projectId, dbAlias: props.dbAlias }} /> : null}
      {open && !items ? (
        // An unreachable database takes the driver's connect time-out to answer: the group says it is reading meanwhile.
        <ul className="tree-children">
          {failed ? (
            <li className="tree-find-none tree-failed">
              {failed}{' '}
              <button className="tree-retry" onClick={() => setAttempt(attempt + 1)}>{t('common.app.tryAgain')}</button>
            </li>
          ) : (
            <li className="tree-find-none muted"><span role="status">{t('admin.common.loading')}</span></li>
          )}
        </ul>
      ) : null}
      {open && items ? (
        <ul className="tree-children">
          {listed!.length > LIMITS.treePageSize || find ? (
            <li>
              <TreeFind group={groupName(props.kind)} value={find} onChange={(v) => (setFind(v), setShown(LIMITS.treePageSize))} />
            </li>
          ) : null}
          {find.trim() && items.length === 0 ? <li className="tree-find-none muted">{t('schema.tree.findNoMatch', { group: groupName(props.kind), text: find.trim() })}</li> : null}
          {items.slice(0, shown).map((it) => (
            <li key={it.name}>
              {it.type === 'table' && it.tn ? (
                <TableLeaf target={{ scope: { projectId: props.projectId, dbAlias: props.dbAlias }, tn: it.tn, _tn: it.name, canCreate: it.canCreate }} onOpen={() => openItem(it)} />
              ) : (
                <button className="tree-leaf" onClick={() => openItem(it)} title={it.broken ? t('schema.tree.viewBroken', { name: it.title, reason: it.broken }) : undefined}>
                  <EntryIcon type={it.type} />{it.title}
                  {/* A view whose table or column was dropped outside Tablo: in the tree, with the reason. */}
                  {it.broken ? <span className="tree-broken" role="img" aria-label={t('schema.tree.viewBroken', { name: it.title, reason: it.broken })}>!</span> : null}
                </button>
              )}
            </li>
          ))}
          {items.length > shown ? (
            <li>
              <button className="tree-more" onClick={() => setShown(shown + LIMITS.treePageSize)}>
                {t('schema.tree.showMore', { count: Math.min(LIMITS.treePageSize, items.length - shown) })}
              </button>
            </li>
          ) : null}
        </ul>
      ) : null}
    </li>
  );
}

function DbNode(props: { projectId: string; db: EnvDb }) {
  useSignals();
  const { db } = props;
  // Bumped after a metadata sync so every group loads its list again.
  const [generation, setGeneration] = useState(0);
  return (
    <li>
      <div className="tree-db">
        <EntryIcon type="db" />{db.dbAlias} <span className="muted">({engineName(db.client)})</span>
        {isProjectAdmin.value ? <MetaSyncButton projectId={props.projectId} dbAlias={db.dbAlias} onSynced={() => setGeneration(generation + 1)} /> : null}
      </div>
      <ul>
        {(['Tables', 'Views', 'Functions', 'Procedures', 'Sequences'] as GroupKind[]).map((k) => (
          <Group key={`${k}:${generation}`} projectId={props.projectId} dbAlias={db.dbAlias} kind={k} initiallyOpen={k === 'Tables'} generation={schemaGeneration.value} />
        ))}
        {isProjectAdmin.value ? (
          <>
            <PanelLeaf name="audit" dbAlias={db.dbAlias} />
            <PanelLeaf name="sqlClient" dbAlias={db.dbAlias} />
            <PanelLeaf name="acl" dbAlias={db.dbAlias} />
            <PanelLeaf name="disableOrEnableModel" dbAlias={db.dbAlias} />
          </>
        ) : null}
      </ul>
    </li>
  );
}

export function ProjectTree(props: { projectId: string; title: string }) {
  useSignals();
  const [envs, setEnvs] = useState<EnvList | null>(null);
  // Environments and databases are read again after a schema or connection change (this user's or another's).
  const generation = schemaGeneration.value;
  const latest = useLatest();
  useEffect(() => void latest(projectEnvs(props.projectId), setEnvs, (e) => toast('error', e.message)), [props.projectId, generation]);
  return (
    <nav className="tree" aria-label={t('schema.tree.label')}>
      <div className="tree-project">{props.title}</div>
      <ul>
        {envs
          ? Object.entries(envs.envs).map(([env, e]) => (
              <li key={env}>
                <div className="tree-env">
                  {env} {e.active ? <span className="badge badge-started">{t('schema.tree.activeEnv')}</span> : null}
                </div>
                {e.active ? (
                  <ul>
                    {e.dbs.map((db) => (
                      <DbNode key={db.dbAlias} projectId={props.projectId} db={db} />
                    ))}
                  </ul>
                ) : null}
              </li>
            ))
          : null}
      </ul>
      {envs ? <ChangeEnvButton projectId={props.projectId} envs={Object.keys(envs.envs)} workingEnv={envs.workingEnv} /> : null}
      <ProjectExtras projectId={props.projectId} />
    </nav>
  );
}
