/** The one wrapper around the signals library: stores and components import from here. */
export { signal, computed, effect, batch, type Signal, type ReadonlySignal } from '@preact/signals-react';
export { useSignals } from '@preact/signals-react/runtime';
