import { Link, useNavigate } from 'react-router';
import { Button, ErrorText, loginSchema, TextField, useForm, type Configuracion } from 'shared/arranque';
import { api } from '../app/api';
import { useSession } from '../state/session';
import { AuthCard } from './AuthCard';
import { useAuthSubmit } from './useAuthSubmit';

export function LoginPage() {
  const form = useForm(loginSchema, { email: '', password: '' });
  const login = useSession((s) => s.login);
  const redirect = useSession((s) => s.redirect);
  const navigate = useNavigate();

  const { error, busy, handleSubmit } = useAuthSubmit({
    form,
    failure: 'No se ha podido iniciar sesión',
    send: async () => {
      const res = await api.post<Configuracion>('identificar', form.values);
      if (res.RESULT === '0') {
        login(res.user as never, res.data?.[0], res.acciones, res.demo);
        // A till-only role (Caja: the TPV and nothing else) goes straight to the till (issue 23).
        const areas = Object.keys((res.user as { rol?: { derechos?: { areas?: object } } } | undefined)?.rol?.derechos?.areas ?? {});
        const soloTpv = areas.length === 1 && areas[0] === 'tpv';
        if (soloTpv && !redirect?.startsWith('/tpv')) navigate('/tpv', { replace: true });
        else navigate(redirect && redirect !== '/login' ? redirect : '/', { replace: true });
        return;
      }
      // Spec §8: RESULT '2' on login does nothing; '1' is the generic failure.
      if (res.RESULT === '1') return res.message ?? 'No se ha podido iniciar sesión. Compruebe la conexión.';
    },
  });

  return (
    <AuthCard title="Iniciar sesión" lead="Acceda con su correo electrónico y contraseña.">
      <form onSubmit={handleSubmit} noValidate>
        <TextField
          label="Correo electrónico"
          type="email"
          name="email"
          autoComplete="username"
          autoFocus
          value={form.values.email}
          onChange={(v) => form.set('email', v)}
          error={form.errors.email}
        />
        <TextField
          label="Contraseña"
          type="password"
          name="password"
          autoComplete="current-password"
          value={form.values.password}
          onChange={(v) => form.set('password', v)}
          error={form.errors.password}
        />
        {error && <ErrorText>{error}</ErrorText>}
        <Button type="submit" disabled={busy}>
          {busy ? 'Entrando…' : 'Entrar'}
        </Button>
      </form>
      <div className="links">
        <Link to="/recuperar-psswd">¿Ha olvidado su contraseña?</Link>
      </div>
    </AuthCard>
  );
}
