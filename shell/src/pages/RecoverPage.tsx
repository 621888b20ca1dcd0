import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button, ErrorText, MESSAGES, recordarSchema, restablecerSchema, TextField, useForm } from 'shared/arranque';
import { api } from '../app/api';
import { AuthCard } from './AuthCard';
import { useAuthSubmit } from './useAuthSubmit';

/** /recuperar-psswd: ask for a link; with ?token= set the new password. */
export function RecoverPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return token ? <ResetForm token={token} /> : <RequestForm />;
}

function RequestForm() {
  const form = useForm(recordarSchema, { email: '' });
  const [sent, setSent] = useState('');
  const { error, busy, handleSubmit } = useAuthSubmit({
    form,
    failure: 'No se ha podido enviar la solicitud',
    send: async () => {
      const res = await api.post('recordar', form.values);
      if (res.RESULT === '0') setSent(res.message ?? MESSAGES.recoverySent);
      else return res.message ?? 'No se ha podido enviar la solicitud. Compruebe la conexión.';
    },
  });

  return (
    <AuthCard
      title="Recuperar contraseña"
      lead="Escriba la dirección de correo electrónico con la que accede. Le enviaremos un enlace para elegir una contraseña nueva; el enlace sirve una sola vez y caduca en una hora."
    >
      {sent ? (
        <p role="status">{sent}</p>
      ) : (
        <form onSubmit={handleSubmit} noValidate>
          <TextField label="Correo electrónico" type="email" name="email" autoFocus value={form.values.email} onChange={(v) => form.set('email', v)} error={form.errors.email} />
          {error && <ErrorText>{error}</ErrorText>}
          <Button type="submit" disabled={busy}>
            Enviar enlace
          </Button>
        </form>
      )}
      <div className="links">
        <Link to="/login">Volver a iniciar sesión</Link>
      </div>
    </AuthCard>
  );
}

function ResetForm({ token }: { token: string }) {
  const form = useForm(restablecerSchema, { token, password: '', confirm: '' });
  const [done, setDone] = useState(false);
  const { error, busy, handleSubmit } = useAuthSubmit({
    form,
    failure: MESSAGES.recoveryInvalid,
    validate: () => {
      if (!form.validateAll()) return false;
      if (form.values.password === form.values.confirm) return true;
      form.setErrors({ confirm: MESSAGES.passwordsDiffer });
      return false;
    },
    send: async () => {
      const res = await api.post('restablecer', { token, password: form.values.password });
      if (res.RESULT === '0') setDone(true);
      else return res.message ?? MESSAGES.recoveryInvalid;
    },
  });

  return (
    <AuthCard title="Nueva contraseña" lead={done ? undefined : 'Elija una contraseña de al menos 8 caracteres.'}>
      {done ? (
        <p role="status">{MESSAGES.passwordChanged}</p>
      ) : (
        <form onSubmit={handleSubmit} noValidate>
          <TextField label="Contraseña nueva" type="password" name="password" autoComplete="new-password" autoFocus value={form.values.password} onChange={(v) => form.set('password', v)} error={form.errors.password} />
          <TextField label="Repita la contraseña" type="password" name="confirm" autoComplete="new-password" value={form.values.confirm} onChange={(v) => form.set('confirm', v)} error={form.errors.confirm} />
          {(error || form.errors.token) && <ErrorText>{error || form.errors.token}</ErrorText>}
          <Button type="submit" disabled={busy}>
            Guardar contraseña
          </Button>
        </form>
      )}
      <div className="links">
        <Link to="/login">Ir a iniciar sesión</Link>
      </div>
    </AuthCard>
  );
}
