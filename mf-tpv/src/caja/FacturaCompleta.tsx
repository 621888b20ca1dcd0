import { useEffect, useState } from 'react';
import { downloadDocumentosPdf, empresaPdf, formatMoney, terceroPdfDe, type ClienteTpv, type Configuracion, type Documento } from 'shared';
import { ElegirCliente, sinConexion } from './ElegirCliente';
import { useCaja } from './estado';
import { Aviso, TouchButton, Campo, TouchDialog, Fila, Fondo } from './estilos';
import * as srv from './servidor';
import type { TicketServidor } from './tipos';

export const nombreFicheroFactura = (numero: string) => `factura-${numero.replace(/[^\w-]+/g, '_')}.pdf`;

/** A full invoice made at the till (F3 or F1), to print: its PDF with the company and the customer as the back office's. */
export const pdfFactura = (f: Documento, config: Configuracion | null, emisor: { nombre: string; nif: string }, cliente: ClienteTpv | null) =>
  downloadDocumentosPdf([f], {
    fileName: nombreFicheroFactura(f.numero ?? String(f.id)),
    empresa: empresaPdf(config) ?? emisor,
    tercero: () => (cliente ? terceroPdfDe(cliente) : null),
  });

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
  const [cliente, setCliente] = useState<ClienteTpv | null>(null);
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

  const pdf = (f: Documento) => pdfFactura(f, config, { nombre: terminal.emisor.nombre, nif: terminal.emisor.nif }, cliente);

  return (
    <Fondo>
      <TouchDialog aria-label="Factura completa" style={{ width: 'min(640px, 100%)' }} onKeyDown={(e) => e.key === 'Escape' && onCerrar()}>
        <h2>Factura completa</h2>
        {factura ? (
          <>
            <p role="status" style={{ fontSize: 18 }}>
              Factura <strong data-testid="factura-numero">{factura.numero}</strong> para {cliente?.razon_social} ({cliente?.nif}): {formatMoney(factura.total ?? 0)}. Sustituye al
              ticket {ticket?.numero}.
            </p>
            <Fila>
              <TouchButton $tono="primario" onClick={() => void pdf(factura)}>PDF de la factura</TouchButton>
              <TouchButton $grande autoFocus onClick={onCerrar}>Terminar</TouchButton>
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
                <TouchButton type="submit" disabled={busy}>Buscar</TouchButton>
              </Fila>
            </form>
            {ticket && (
              <p data-testid="f3-ticket" style={{ fontWeight: 600 }}>
                Ticket {ticket.numero} · {ticket.lineas.length} {ticket.lineas.length === 1 ? 'línea' : 'líneas'} · {formatMoney(ticket.total)}
              </p>
            )}
            {ticket && ticket.estado === 'emitido' && <ElegirCliente cliente={cliente} onCliente={setCliente} autoFocus={!!numeroInicial} />}
            {error && <Aviso>{error}</Aviso>}
            <Fila style={{ marginTop: 12 }}>
              <TouchButton $tono="ok" disabled={busy || !ticket || ticket.estado !== 'emitido' || !cliente} onClick={() => void facturar()}>
                Hacer la factura
              </TouchButton>
              <TouchButton onClick={onCerrar}>Cancelar</TouchButton>
            </Fila>
          </>
        )}
      </TouchDialog>
    </Fondo>
  );
}
