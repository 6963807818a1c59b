/**
 * The import dialog: pick or drop a CSV, XLSX or JSON file, choose the sheet (XLSX) or the delimiter
 * (CSV, detected), check the preview with a type (new table) or a target column (existing table)
 * per column, choose what bad rows do and "all or nothing", then follow the progress (rows,
 * estimate, time left) and cancel if need be. A new table opens in the grid when the import ends.
 */
import { useEffect, useRef, useState } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useSignals } from '../../stores/signals';
import { t } from '../../i18n';
import { ToolsSwitch } from '../api-client/tools-switch';
import { formatBytes } from '../api-client/units';
import './import.css';
import { Button, TextField } from '../../components/form';
import { dashboardApi, type ColumnMeta } from '../../api/dashboard';
import { transferApi, type ColumnSpec, type ImportJob, type UploadAnswer } from '../../api/transfer';
import { schemaChanged } from '../../stores/schema-ui';
import { openTab } from '../../stores/tabs';
import { DELIMITERS, delimiterName, importTarget, previewNote, rowsWithErrors, tableNameOf } from './import-store';
import { ImportPreview, initialSpecs } from './import-preview';
import { ImportProgress } from './import-progress';
import { useLatest } from '../../components/use-latest-answer';
import { createRights } from '../form/create-rights';

const POLL_MS = 400;

/** Renders the import dialog while one is asked for in this project; leaving the project closes it. */
export function ImportDialogHost(props: { projectId: string }) {
  useSignals();
  const target = importTarget.value;
  useEffect(() => {
    if (importTarget.value && importTarget.value.scope.projectId !== props.projectId) importTarget.value = null;
  }, [props.projectId]);
  if (!target || target.scope.projectId !== props.projectId) return null;
  return <ImportDialog key={`${target.scope.dbAlias}:${target.tn ?? ''}`} />;
}

function ImportDialog() {
  const target = importTarget.value!;
  const { projectId, dbAlias } = target.scope;
  const [answer, setAnswer] = useState<UploadAnswer | null>(null);
  const [columns, setColumns] = useState<ColumnMeta[] | null>(null);
  const [specs, setSpecs] = useState<ColumnSpec[]>([]);
  const [tn, setTn] = useState('');
  const [onError, setOnError] = useState<'skip' | 'stop'>('skip');
  const [allOrNothing, setAllOrNothing] = useState(false);
  const [job, setJob] = useState<ImportJob | null>(null);
  const [busy, setBusy] = useState('');
  const [error, setError] = useState('');
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const close = () => (importTarget.value = null);

  const run = async <T,>(what: string, p: Promise<T>): Promise<T | undefined> => {
    setBusy(what);
    setError('');
    try {
      return await p;
    } catch (e) {
      setError((e as Error).message);
      return undefined;
    } finally {
      setBusy('');
    }
  };

  const take = (a: UploadAnswer, cols: ColumnMeta[] | null) => {
    setAnswer(a);
    setSpecs(initialSpecs(a, cols));
  };

  // The file picked and the delimiter or sheet chosen last decide the preview: an earlier answer is dropped.
  const answers = useLatest();
  const pick = async (file: File | undefined) => {
    if (!file) return;
    const current = answers.begin();
    // Rows go in with the create right: only the columns the role may set on a new row can take a file's column.
    const meta = target.tn ? await run(t('tools.import.readingTable'), dashboardApi.tableMeta(projectId, dbAlias, target.tn)) : null;
    const cols = meta ? createRights(meta, meta.columns).settable.filter((c) => !c.ai) : null;
    if (target.tn && !cols) return;
    setColumns(cols);
    const name = file.name;
    const a = await run(
      t('tools.import.uploading', { name }),
      transferApi.upload(projectId, dbAlias, file, target.tn, (sent, total) =>
        setBusy(sent < total ? t('tools.import.uploadingPercent', { name, percent: sent / total }) : t('tools.import.readingNamed', { name })),
      ),
    );
    if (!a || !current()) return;
    setTn(tableNameOf(file.name));
    take(a, cols);
  };

  const reread = async (change: { sheet?: string; delimiter?: string }) => {
    const current = answers.begin();
    const a = await run(t('tools.import.reading'), transferApi.preview(projectId, dbAlias, { uploadId: answer!.uploadId, sheet: change.sheet ?? answer!.sheet ?? undefined, delimiter: change.delimiter ?? answer!.delimiter ?? undefined }));
    if (a && current()) take(a, columns);
  };

  const start = async () => {
    const a = answer!;
    const j = await run(
      t('tools.import.starting'),
      transferApi.start(projectId, dbAlias, {
        uploadId: a.uploadId,
        sheet: a.sheet ?? undefined,
        delimiter: a.delimiter ?? undefined,
        ...(target.tn ? { tn: target.tn } : { create: { tn: tn.trim() } }),
        columns: specs,
        onError,
        allOrNothing,
      }),
    );
    if (j) setJob(j);
  };

  // Polls a running import; when it ends, the tree and grids read the schema and rows again.
  useEffect(() => {
    if (!job || job.status !== 'running') return;
    const timer = setTimeout(async () => {
      try {
        const next = await transferApi.status(projectId, dbAlias, job.id);
        setJob(next);
        if (next.status !== 'running') {
          schemaChanged();
          if (next.status === 'done' && next.table.created) openTab({ type: 'table', name: next.table._tn, dbAlias, title: next.table._tn });
        }
      } catch (e) {
        setError((e as Error).message);
      }
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [job]);

  const running = job?.status === 'running';
  // Rows of the sample with an error cell (#DIV/0!...) in a column to import: said before the import reports them.
  const errorRows = answer ? rowsWithErrors(answer, specs) : 0;
  const heading = target.tn ? t('tools.import.headingInto', { table: target._tn ?? target.tn }) : t('tools.import.headingNew');
  return (
    <ModalOverlay isOpen isDismissable={!running} isKeyboardDismissDisabled={running} onOpenChange={(open) => !open && close()} className="dialog-backdrop">
      <Modal className="dialog dialog-wide import-dialog">
        <Dialog className="import-dialog-body">
          <Heading slot="title">{heading}</Heading>
          {!answer ? (
            <div
              className={`import-drop${dragging ? ' import-drop-over' : ''}`}
              onDragOver={(e) => {
                e.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={(e) => {
                e.preventDefault();
                setDragging(false);
                void pick(e.dataTransfer.files[0]);
              }}
            >
              <p>{t('tools.import.drop')}</p>
              <Button onClick={() => fileInput.current?.click()} disabled={!!busy}>
                {t('tools.import.choose')}
              </Button>
              <input ref={fileInput} type="file" hidden aria-label={t('tools.import.fileLabel')} accept=".csv,.tsv,.txt,.xlsx,.json,.jsonl,.ndjson,text/csv,application/json,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" onChange={(e) => void pick(e.target.files?.[0])} />
              <p className="muted">{t('tools.import.fileHint')}</p>
            </div>
          ) : job ? (
            <ImportProgress job={job} />
          ) : (
            <>
              <div className="import-file">
                <strong>{answer.filename}</strong> <span className="muted">{t('tools.import.fileInfo', { size: formatBytes(answer.size), format: answer.format.toUpperCase() })}</span>
                {answer.format === 'csv' ? (
                  <label>
                    {t('tools.import.delimiter')}{' '}
                    <select aria-label={t('tools.import.delimiter')} value={answer.delimiter ?? ','} onChange={(e) => void reread({ delimiter: e.target.value })}>
                      {DELIMITERS.map((d) => (
                        <option key={d} value={d}>
                          {delimiterName(d)}
                        </option>
                      ))}
                    </select>
                  </label>
                ) : answer.format === 'xlsx' ? (
                  <label>
                    {t('tools.import.sheet')}{' '}
                    <select aria-label={t('tools.import.sheet')} value={answer.sheet ?? ''} onChange={(e) => void reread({ sheet: e.target.value })}>
                      {(answer.sheets ?? []).map((s) => (
                        <option key={s} value={s}>
                          {s}
                        </option>
                      ))}
                    </select>
                  </label>
                ) : null}
              </div>
              {!target.tn ? <TextField label={t('tools.import.tableName')} name="import-table" value={tn} onChange={setTn} /> : null}
              <ImportPreview answer={answer} specs={specs} onChange={setSpecs} columns={columns} />
              <div className="muted">
                {previewNote(answer.preview)}
              </div>
              {errorRows ? (
                <div className="form-message import-error-note" role="note">
                  {t('tools.import.errorRows', { count: errorRows, sampled: answer.preview.sampled })}
                </div>
              ) : null}
              <fieldset className="import-options">
                <legend>{t('tools.import.misfitLegend')}</legend>
                <label>
                  <input type="radio" name="import-on-error" checked={onError === 'skip'} onChange={() => setOnError('skip')} /> {t('tools.import.misfitSkip')}
                </label>
                <label>
                  <input type="radio" name="import-on-error" checked={onError === 'stop'} onChange={() => setOnError('stop')} /> {t('tools.import.misfitStop')}
                </label>
                <ToolsSwitch isSelected={allOrNothing} onChange={setAllOrNothing}>
                  {target.tn ? t('tools.import.allOrNothingRows') : t('tools.import.allOrNothingTable')}
                </ToolsSwitch>
              </fieldset>
            </>
          )}
          {busy ? <div className="muted" role="status">{busy}</div> : null}
          {error ? <div className="form-message form-message-error" role="alert">{error}</div> : null}
          <div className="dialog-actions">
            {running ? (
              <Button variant="danger" onClick={() => void run(t('tools.import.cancelling'), transferApi.cancel(projectId, dbAlias, job!.id)).then((j) => j && setJob(j))}>
                {t('tools.import.cancelImport')}
              </Button>
            ) : (
              <Button variant="secondary" onClick={close}>
                {job ? t('tools.import.close') : t('tools.import.cancel')}
              </Button>
            )}
            {answer && !job ? (
              <Button onClick={() => void start()} disabled={!!busy || (!target.tn && !tn.trim())}>
                {t('tools.import.import')}
              </Button>
            ) : null}
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
