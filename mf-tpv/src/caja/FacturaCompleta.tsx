import { useEffect, useState, type FormEvent } from 'react';
import { downloadDocumentosPdf, empresaPdf, formatMoney, isValidNif, MENSAJES_TPV, MESSAGES, normalizeNif, terceroPdfDe, type ClienteTpv, type Documento } from 'shared';
import { useCaja } from './estado';
import { Aviso, Boton, Campo, Dialogo, Fila, Fondo } from './estilos';
import * as srv from './servidor';
import type { TicketServidor } from './tipos';

type Nuevo = { nif: string; razon_social: string; direccion: string; codigo_postal: string; poblacion: string };
const VACIO: Nuevo = { nif: '', razon_social: '', direccion: '', codigo_postal: '', poblacion: '' };

const sinConexion = (err: unknown, que: string) => (err instanceof srv.SinConexion ? `${que} necesita conexión con el servidor.` : (err as Error).message);

export const nombreFicheroFactura = (numero: string) => `factura-${numero.replace(/[^\w-]+/g, '_')}.pdf`;

/**
 * «Factura completa» (F3) at the till: the ticket (the one just sold, or found by its number), the customer (found
 * by NIF or name, or created with the fields an invoice needs, its NIF checked as it is typed), and
 * `facturarticket`: the full invoice replaces the ticket; its PDF downloads for printing.
 */
export default function FacturaCompleta({ numeroInicial, onCerrar }: { numeroInicial?: string | null; onCerrar(): void }) {
  const terminal = useCaja((s) => s.terminal)!;
  const config = useCaja((s) => s.sesion?.config ?? null);
  const [numero, setNumero] = useState(numeroInicial ?? '');
  const [ticket, setTicket] = useState<TicketServidor | null>(null);
  const [q, setQ] = useState('');
  const [hallados, setHallados] = useState<ClienteTpv[] | null>(null);
  const [cliente, setCliente] = useState<ClienteTpv | null>(null);
  const [nuevo, setNuevo] = useState<Nuevo | null>(null);
  const [nifError, setNifError] = useState<string | null>(null);
  const [factura, setFactura] = useState<Documento | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const buscarTicket = async (texto: string) => {
    setError(null);
    setBusy(true);
    try {
      const t = await srv.buscarTicket(texto, terminal.id);
      setTicket(t);
      if (!t) setError(`No hay ningún ticket «${texto}» en el servidor (un ticket hecho sin conexión llega al volver la conexión).`);
      else if (t.estado === 'facturado') setError('Este ticket ya tiene su factura completa.');
      else if (t.estado && t.estado !== 'emitido') setError('Un ticket con devoluciones no se sustituye por una factura completa.');
    } catch (err) {
      setError(sinConexion(err, 'La factura completa'));
    } finally {
      setBusy(false);
    }
  };
  // The ticket just sold: looked up at once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the number the screen opened with
  useEffect(() => {
    if (numeroInicial) void buscarTicket(numeroInicial);
  }, []);

  const buscarClientes = async (e: FormEvent) => {
    e.preventDefault();
    // The server answers only three characters or more, or a whole NIF (issue 23: never a list of every customer).
    if (q.trim().length < 3 && !isValidNif(normalizeNif(q))) return setError(MENSAJES_TPV.clienteBusquedaCorta);
    setError(null);
    setBusy(true);
    try {
      const filas = await srv.buscarClientes(q);
      setHallados(filas);
      if (filas.length === 1) setCliente(filas[0]);
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
      setCliente(c);
      setNuevo(null);
      if (c.existente) setError(null);
    } catch (err) {
      setError(sinConexion(err, 'Dar de alta el cliente'));
    } finally {
      setBusy(false);
    }
  };

  const facturar = async () => {
    if (!ticket || !cliente) return;
    setBusy(true);
    setError(null);
    try {
      setFactura(await srv.facturarTicket(ticket.id, cliente.id));
    } catch (err) {
      setError(sinConexion(err, 'La factura completa'));
    } finally {
      setBusy(false);
    }
  };

  const pdf = (f: Documento) =>
    downloadDocumentosPdf([f], {
      fileName: nombreFicheroFactura(f.numero ?? String(f.id)),
      empresa: empresaPdf(config) ?? { nombre: terminal.emisor.nombre, nif: terminal.emisor.nif },
      tercero: () => (cliente ? terceroPdfDe(cliente) : null),
    });

  const campoNuevo = (k: keyof Nuevo, label: string, extra: Record<string, unknown> = {}) => (
    <>
      <label htmlFor={`tpv-f3-${k}`}>{label}</label>
      <Campo
        id={`tpv-f3-${k}`}
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
    <Fondo>
      <Dialogo aria-label="Factura completa" style={{ width: 'min(640px, 100%)' }} onKeyDown={(e) => e.key === 'Escape' && onCerrar()}>
        <h2>Factura completa</h2>
        {factura ? (
          <>
            <p role="status" style={{ fontSize: 18 }}>
              Factura <strong data-testid="factura-numero">{factura.numero}</strong> para {cliente?.razon_social} ({cliente?.nif}): {formatMoney(factura.total ?? 0)}. Sustituye al
              ticket {ticket?.numero}.
            </p>
            <Fila>
              <Boton $tono="primario" onClick={() => void pdf(factura)}>PDF de la factura</Boton>
              <Boton $grande autoFocus onClick={onCerrar}>Terminar</Boton>
            </Fila>
          </>
        ) : (
          <>
            <form
              onSubmit={(e) => {
                e.preventDefault();
                if (numero.trim()) void buscarTicket(numero);
              }}
            >
              <label htmlFor="tpv-f3-numero">Número del ticket (escríbalo o escanéelo)</label>
              <Fila>
                <Campo id="tpv-f3-numero" autoFocus={!numeroInicial} autoComplete="off" value={numero} onChange={(e) => setNumero(e.target.value)} style={{ flex: 1, width: 'auto' }} />
                <Boton type="submit" disabled={busy}>Buscar</Boton>
              </Fila>
            </form>
            {ticket && (
              <p data-testid="f3-ticket" style={{ fontWeight: 600 }}>
                Ticket {ticket.numero} · {ticket.lineas.length} {ticket.lineas.length === 1 ? 'línea' : 'líneas'} · {formatMoney(ticket.total)}
              </p>
            )}
            {ticket && ticket.estado === 'emitido' && !nuevo && (
              <>
                <form onSubmit={buscarClientes}>
                  <label htmlFor="tpv-f3-cliente">Cliente (NIF o nombre)</label>
                  <Fila>
                    <Campo id="tpv-f3-cliente" aria-describedby="tpv-f3-cliente-ayuda" autoFocus={!!numeroInicial} autoComplete="off" value={q} onChange={(e) => setQ(e.target.value)} style={{ flex: 1, width: 'auto' }} />
                    <Boton type="submit" disabled={busy}>Buscar cliente</Boton>
                    <Boton
                      type="button"
                      onClick={() => {
                        const n = normalizeNif(q);
                        setNuevo({ ...VACIO, ...(isValidNif(n) ? { nif: n } : {}) });
                        setCliente(null);
                        setError(null);
                      }}
                    >
                      Cliente nuevo
                    </Boton>
                  </Fila>
                  <small id="tpv-f3-cliente-ayuda">{MENSAJES_TPV.clienteBusquedaCorta}</small>
                </form>
                {hallados && hallados.length === 0 && <p>Ningún cliente con NIF coincide: puede darlo de alta con «Cliente nuevo».</p>}
                {hallados && hallados.length > 0 && (
                  <Fila role="listbox" aria-label="Clientes encontrados" style={{ marginTop: 8 }}>
                    {hallados.map((c) => (
                      <Boton key={c.id} role="option" aria-selected={cliente?.id === c.id} $tono={cliente?.id === c.id ? 'primario' : 'neutro'} onClick={() => setCliente(c)}>
                        {c.razon_social} · {c.nif}
                      </Boton>
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
                  <Boton type="submit" $tono="primario" disabled={busy}>Dar de alta</Boton>
                  <Boton type="button" onClick={() => setNuevo(null)}>Volver a buscar</Boton>
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
            <Fila style={{ marginTop: 12 }}>
              <Boton $tono="ok" disabled={busy || !ticket || ticket.estado !== 'emitido' || !cliente || !!nuevo} onClick={() => void facturar()}>
                Hacer la factura
              </Boton>
              <Boton onClick={onCerrar}>Cancelar</Boton>
            </Fila>
          </>
        )}
      </Dialogo>
    </Fondo>
  );
}
