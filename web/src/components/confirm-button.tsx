/**
 * A button for an action that cannot be undone (delete a token, a webhook or a cron job, remove a
 * member): it asks first in a confirm dialog (Esc cancels, Enter confirms), then runs the action.
 */
import { useState } from 'react';
import { Button } from './form';
import { ConfirmDialog } from './overlays';

export function ConfirmButton(props: { label: string; heading: string; body: string; onConfirm: () => void; variant?: 'ghost' | 'danger'; disabled?: boolean }) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <Button variant={props.variant ?? 'ghost'} disabled={props.disabled} onClick={() => setAsking(true)}>
        {props.label}
      </Button>
      {asking ? (
        <ConfirmDialog
          heading={props.heading}
          submitLabel={props.label}
          onCancel={() => setAsking(false)}
          onSubmit={() => {
            setAsking(false);
            props.onConfirm();
          }}
        >
          <p>{props.body}</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
