import { useState, type FormEvent } from 'react';
import { ApiHttpError } from 'shared/arranque';

export type AuthSubmitOptions = {
  form: { validateAll: () => boolean; takeServerErrors: (err: unknown) => boolean };
  /** Checks before sending; by default the form's schema. False stops there. */
  validate?: () => boolean;
  /** Sends; resolves the message to show when the server refuses, nothing when it is done. */
  send: () => Promise<string | undefined>;
  /** What to show when the request fails without a message of its own. */
  failure: string;
};

/**
 * The submit of a form outside the session (login, recovery link, new password): clears the last
 * error, validates, sends (busy meanwhile) and shows the refusal, the server's field errors
 * (HTTP 400) or `failure`.
 */
export function useAuthSubmit({ form, validate = () => form.validateAll(), send, failure }: AuthSubmitOptions) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const handleSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    if (!validate()) return;
    setBusy(true);
    try {
      const refused = await send();
      if (refused) setError(refused);
    } catch (err) {
      if (!form.takeServerErrors(err)) setError(err instanceof ApiHttpError ? err.message : failure);
    } finally {
      setBusy(false);
    }
  };

  return { error, busy, handleSubmit };
}
