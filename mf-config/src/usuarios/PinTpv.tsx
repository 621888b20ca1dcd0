import { useState, type FormEvent } from 'react';
import { Badge, Button, FormGrid, FormSection, MESSAGES_TPV, TextField, useAction, useShell } from 'shared';

/**
 * A user's PIN for the till (issue 23): the cashier picks their name at a paired till and types it. Set, changed or
 * removed here by whoever manages users (`editarpintpv` with `usuario_id`; the server checks Usuarios › crear y
 * modificar and writes the audit line, never the PIN). Its own form: it saves nothing else of the user.
 */
export function PinTpv({ usuarioId, nombre, conPin: inicial }: { usuarioId: number; nombre: string; conPin: boolean }) {
  const { flags } = useShell();
  const { run, busy } = useAction();
  const [conPin, setConPin] = useState(inicial);
  const [pin, setPin] = useState('');
  const [pin2, setPin2] = useState('');
  const [errores, setErrores] = useState<{ pin?: string; pin2?: string }>({});
  if (!flags.tpv) return null;

  const guardar = async (e: FormEvent) => {
    e.preventDefault();
    const err: typeof errores = {};
    if (!/^\d{4,8}$/.test(pin)) err.pin = MESSAGES_TPV.pinNoValido;
    else if (pin !== pin2) err.pin2 = 'Los dos PIN no coinciden.';
    setErrores(err);
    if (err.pin || err.pin2) return;
    const r = await run('editarpintpv', { usuario_id: usuarioId, pin });
    if (r.ok) {
      setConPin(true);
      setPin('');
      setPin2('');
    } else {
      const campos = (r.response as { errors?: Record<string, string> } | undefined)?.errors;
      if (campos?.pin) setErrores({ pin: campos.pin });
    }
  };
  const quitar = async () => {
    const r = await run('editarpintpv', { usuario_id: usuarioId, quitar: 1 });
    if (r.ok) setConPin(false);
  };

  return (
    <form onSubmit={guardar} aria-label="PIN del TPV" noValidate>
      <FormSection
        title="PIN del TPV"
        description={`Con él ${nombre} entra en una caja emparejada eligiendo su nombre (de 4 a 8 cifras). Abre solo la caja, nunca la gestión; cada cambio queda en la actividad, sin el PIN.`}
      >
        <p style={{ margin: '0 0 8px' }} data-testid="estado-pin">
          {conPin ? <Badge $tone="ok">Tiene PIN</Badge> : <Badge $tone="off">Sin PIN</Badge>}
        </p>
        <FormGrid>
          <TextField
            label={conPin ? 'Nuevo PIN' : 'PIN'}
            type="password"
            inputMode="numeric"
            autoComplete="new-password"
            maxLength={8}
            value={pin}
            error={errores.pin}
            onChange={(v) => setPin(v.replace(/\D/g, ''))}
          />
          <TextField
            label="Repetir PIN"
            type="password"
            inputMode="numeric"
            autoComplete="new-password"
            maxLength={8}
            value={pin2}
            error={errores.pin2}
            onChange={(v) => setPin2(v.replace(/\D/g, ''))}
          />
        </FormGrid>
        <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
          <Button type="submit" disabled={busy || !pin}>
            {conPin ? 'Cambiar PIN' : 'Poner PIN'}
          </Button>
          {conPin && (
            <Button type="button" $variant="ghost" disabled={busy} onClick={() => void quitar()}>
              Quitar PIN
            </Button>
          )}
        </div>
      </FormSection>
    </form>
  );
}
