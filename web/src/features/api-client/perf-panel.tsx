/**
 * The API client's performance test: how many requests and how many at once, Run and Stop, the
 * progress, and the result (rate, times, answers by status). The request is the one on screen, built
 * when Run is pressed; the test says 'Starting performance test' and 'Finished performance test'.
 */
import { useRef, useState } from 'react';
import { Button, FormMessage } from '../../components/form';
import { toast } from '../../stores/toasts';
import { t } from '../../i18n';
import { PERF_MAX_CONCURRENCY, PERF_MAX_REQUESTS, perfProblem, runPerfTest, type PerfResult, type PerfSend } from './perf-test';

export function PerfPanel(props: {
  /** The send of the request on screen, or the message of why it cannot be sent. */
  prepare: () => PerfSend | string;
  disabled: boolean;
  onFinished: (result: PerfResult) => void;
  onClose: () => void;
}) {
  const [requests, setRequests] = useState('100');
  const [concurrency, setConcurrency] = useState('5');
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const stop = useRef<AbortController | null>(null);

  const run = async () => {
    const n = Number(requests);
    const c = Number(concurrency);
    const problem = perfProblem(n, c);
    if (problem) return setError(problem === 'requests' ? t('tools.perf.requestsRange', { max: PERF_MAX_REQUESTS }) : t('tools.perf.concurrencyRange', { max: PERF_MAX_CONCURRENCY }));
    const send = props.prepare();
    if (typeof send === 'string') return setError(send);
    setError(null);
    stop.current = new AbortController();
    setProgress({ done: 0, total: n });
    toast('info', t('tools.perf.starting'));
    const result = await runPerfTest(send, n, c, { signal: stop.current.signal, onProgress: (done) => setProgress({ done, total: n }) });
    stop.current = null;
    setProgress(null);
    toast('success', t('tools.perf.finished'));
    props.onFinished(result);
  };

  return (
    <form className="inline-form perf-form" noValidate aria-label={t('tools.perf.title')} onSubmit={(e) => (e.preventDefault(), void run())}>
      <label className="field inline">
        <span>{t('tools.perf.requests')}</span>
        <input type="number" min={1} max={PERF_MAX_REQUESTS} value={requests} onChange={(e) => setRequests(e.target.value)} disabled={!!progress} />
      </label>
      <label className="field inline">
        <span>{t('tools.perf.concurrency')}</span>
        <input type="number" min={1} max={PERF_MAX_CONCURRENCY} value={concurrency} onChange={(e) => setConcurrency(e.target.value)} disabled={!!progress} />
      </label>
      {progress ? (
        <>
          <progress max={progress.total} value={progress.done} aria-label={t('tools.perf.progressLabel')} />
          <span role="status">{t('tools.perf.progress', { done: progress.done, total: progress.total })}</span>
          <Button variant="secondary" onClick={() => stop.current?.abort()}>{t('tools.perf.stop')}</Button>
        </>
      ) : (
        <>
          <Button type="submit" disabled={props.disabled}>{t('tools.perf.run')}</Button>
          <Button variant="ghost" onClick={props.onClose}>{t('tools.api.cancel')}</Button>
        </>
      )}
      <FormMessage kind="error" text={error} />
    </form>
  );
}

/** A test's result: the rate, the times and the answers by status. */
export function PerfResultView(props: { result: PerfResult }) {
  const r = props.result;
  const ms = (v: number) => t('tools.perf.ms', { ms: v });
  return (
    <section className="perf-result" aria-label={t('tools.perf.resultLabel')}>
      <p>
        <strong>{t('tools.perf.rate', { rate: r.rate })}</strong>{' '}
        <span>{t('tools.perf.summary', { requests: r.requests, concurrency: r.concurrency, seconds: Math.round(r.totalMs / 100) / 10 })}</span>
        {r.stopped ? <span> {t('tools.perf.stopped')}</span> : null}
      </p>
      <dl className="perf-times">
        <div><dt>{t('tools.perf.min')}</dt><dd>{ms(r.minMs)}</dd></div>
        <div><dt>{t('tools.perf.median')}</dt><dd>{ms(r.medianMs)}</dd></div>
        <div><dt>{t('tools.perf.p95')}</dt><dd>{ms(r.p95Ms)}</dd></div>
        <div><dt>{t('tools.perf.max')}</dt><dd>{ms(r.maxMs)}</dd></div>
      </dl>
      <ul className="perf-statuses" aria-label={t('tools.perf.statuses')}>
        {Object.entries(r.statuses).map(([status, count]) => (
          <li key={status}><span className={`status-chip status-${status[0]}`}>{status}</span> {t('tools.perf.times', { count })}</li>
        ))}
      </ul>
      {r.failed ? <p className="form-message form-message-error" role="alert">{t('tools.perf.failed', { count: r.failed, error: r.firstError ?? '' })}</p> : null}
    </section>
  );
}
