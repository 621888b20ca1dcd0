import { useState, type FormEvent } from 'react';
import { isValidNif, MESSAGES_TPV, MESSAGES, normalizeNif, type ClienteTpv } from 'shared';
import { Aviso, TouchButton, Campo, Fila } from './estilos';
import * as srv from './servidor';

type Nuevo = { nif: string; razon_social: string; direccion: string; codigo_postal: string; poblacion: string };
const VACIO: Nuevo = { nif: '', razon_social: '', direccion: '', codigo_postal: '', poblacion: '' };

/** A failure of a request that needs the server, said plainly when it is the connection. */
export const sinConexion = (err: unknown, que: string) => (err instanceof srv.SinConexion ? `${que} necesita conexión con el servidor.` : (err as Error).message);

/**
 * The customer of a full invoice at the till (the F3 replacing a ticket, the F1 of a sale over the limit): found by NIF
 * or name (`clientestpv`, three characters or a whole NIF) or created with the fields an invoice names
 * (`altaclientetpv`, the NIF checked as it is typed). `onCliente` gets the one chosen, or null while a new one is
 * being typed.
 */
export function ElegirCliente(props: { cliente: ClienteTpv | null; onCliente(c: ClienteTpv | null): void; autoFocus?: boolean; idPrefijo?: string }) {
  const { cliente, onCliente } = props;
  const p = props.idPrefijo ?? 'tpv-f3';
  const [q, setQ] = useState('');
  const [hallados, setHallados] = useState<ClienteTpv[] | null>(null);
  const [nuevo, setNuevo] = useState<Nuevo | null>(null);
  const [nifError, setNifError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const buscarClientes = async (e: FormEvent) => {
    e.preventDefault();
    // The server answers only three characters or more, or a whole NIF (issue 23: never a list of every customer).
    if (q.trim().length < 3 && !isValidNif(normalizeNif(q))) return setError(MESSAGES_TPV.clienteBusquedaCorta);
    setError(null);
    setBusy(true);
    try {
      const filas = await srv.buscarClientes(q);
      setHallados(filas);
      if (filas.length === 1) onCliente(filas[0]);
    } catch (err) {
      setError(sinConexion(err, 'Buscar clientes'));
    } finally {
      setBusy(false);
    }
  };

  const comprobarNif = (v: string) => {
    const n = normalizeNif(v);
    setNifError(n && !isValidNif(n) ? MESSAGES.invalidNif : null);
    return !!n && isValidNif(n);
  };

  const crear = async (e: FormEvent) => {
    e.preventDefault();
    if (!nuevo) return;
    if (!comprobarNif(nuevo.nif)) return setNifError(nuevo.nif.trim() ? MESSAGES.invalidNif : 'Escriba el NIF del cliente.');
    if (!nuevo.razon_social.trim()) return setError('Escriba el nombre o la razón social del cliente.');
    setError(null);
    setBusy(true);
    try {
      const c = await srv.altaCliente({
        nif: normalizeNif(nuevo.nif),
        razon_social: nuevo.razon_social.trim(),
        ...(nuevo.direccion.trim() ? { direccion: nuevo.direccion.trim() } : {}),
        ...(nuevo.codigo_postal.trim() ? { codigo_postal: nuevo.codigo_postal.trim() } : {}),
        ...(nuevo.poblacion.trim() ? { poblacion: nuevo.poblacion.trim() } : {}),
      });
      onCliente(c);
      setNuevo(null);
    } catch (err) {
      setError(sinConexion(err, 'Dar de alta el cliente'));
    } finally {
      setBusy(false);
    }
  };

  const campoNuevo = (k: keyof Nuevo, label: string, extra: Record<string, unknown> = {}) => (
    <>
      <label htmlFor={`${p}-${k}`}>{label}</label>
      <Campo
        id={`${p}-${k}`}
        autoComplete="off"
        value={nuevo?.[k] ?? ''}
        onChange={(e) => {
          setNuevo({ ...(nuevo ?? VACIO), [k]: e.target.value });
          if (k === 'nif' && nifError) comprobarNif(e.target.value);
        }}
        {...extra}
      />
    </>
  );

  return (
    <>
      {!nuevo && (
        <>
          <form onSubmit={buscarClientes}>
            <label htmlFor={`${p}-cliente`}>Cliente (NIF o nombre)</label>
            <Fila>
              <Campo id={`${p}-cliente`} aria-describedby={`${p}-cliente-ayuda`} autoFocus={props.autoFocus} autoComplete="off" value={q} onChange={(e) => setQ(e.target.value)} style={{ flex: 1, width: 'auto' }} />
              <TouchButton type="submit" disabled={busy}>Buscar cliente</TouchButton>
              <TouchButton
                type="button"
                onClick={() => {
                  const n = normalizeNif(q);
                  setNuevo({ ...VACIO, ...(isValidNif(n) ? { nif: n } : {}) });
                  onCliente(null);
                  setError(null);
                }}
              >
                Cliente nuevo
              </TouchButton>
            </Fila>
            <small id={`${p}-cliente-ayuda`}>{MESSAGES_TPV.clienteBusquedaCorta}</small>
          </form>
          {hallados && hallados.length === 0 && <p>Ningún cliente con NIF coincide: puede darlo de alta con «Cliente nuevo».</p>}
          {hallados && hallados.length > 0 && (
            <Fila role="listbox" aria-label="Clientes encontrados" style={{ marginTop: 8 }}>
              {hallados.map((c) => (
                <TouchButton key={c.id} role="option" aria-selected={cliente?.id === c.id} $tono={cliente?.id === c.id ? 'primario' : 'neutro'} onClick={() => onCliente(c)}>
                  {c.razon_social} · {c.nif}
                </TouchButton>
              ))}
            </Fila>
          )}
        </>
      )}
      {nuevo && (
        <form onSubmit={crear} aria-label="Cliente nuevo" style={{ display: 'grid', gap: 4, marginTop: 8 }}>
          {campoNuevo('nif', 'NIF', { onBlur: (e: { target: { value: string } }) => e.target.value.trim() && comprobarNif(e.target.value), autoFocus: true, 'aria-invalid': !!nifError })}
          {nifError && <Aviso>{nifError}</Aviso>}
          {campoNuevo('razon_social', 'Nombre o razón social')}
          {campoNuevo('direccion', 'Dirección')}
          {campoNuevo('codigo_postal', 'Código postal', { inputMode: 'numeric' })}
          {campoNuevo('poblacion', 'Población')}
          <Fila style={{ marginTop: 8 }}>
            <TouchButton type="submit" $tono="primario" disabled={busy}>Dar de alta</TouchButton>
            <TouchButton type="button" onClick={() => setNuevo(null)}>Volver a buscar</TouchButton>
          </Fila>
        </form>
      )}
      {cliente && !nuevo && (
        <p data-testid="f3-cliente" style={{ fontSize: 17 }}>
          Para: <strong>{cliente.razon_social}</strong> · NIF {cliente.nif}
          {cliente.poblacion ? ` · ${cliente.poblacion}` : ''}
          {cliente.existente ? ' (ya estaba dado de alta)' : ''}
        </p>
      )}
      {error && <Aviso>{error}</Aviso>}
    </>
  );
}
