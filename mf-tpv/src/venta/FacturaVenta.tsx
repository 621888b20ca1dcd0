import { useMemo, useState } from 'react';
import { formatMoney, recargoTicket, totalesTicket, type ClienteTpv, type Documento } from 'shared';
import { ElegirCliente, sinConexion } from '../caja/ElegirCliente';
import { useCaja } from '../caja/estado';
import { TouchButton, TouchDialog, Fila, Fondo } from '../caja/estilos';
import { pdfFactura } from '../caja/FacturaCompleta';
import * as srv from '../caja/servidor';
import Cobro from './Cobro';

/**
 * The way out of a sale over the simplified invoice's limit (issue 23): the customer named (found or created as for
 * an F3), the sale charged and issued at once as a full invoice (F1, `facturarventatpv`) instead of a ticket; its PDF
 * to print. Online only: the record is the back office's. A customer in recargo de equivalencia pays it too (the
 * total shown is the invoice's). The request's uuid is kept while the dialog is open: a retry after a lost answer
 * answers the same invoice.
 */
export default function FacturaVenta({ onCerrar }: { onCerrar(): void }) {
  const terminal = useCaja((s) => s.terminal)!;
  const config = useCaja((s) => s.sesion?.config ?? null);
  const lineas = useCaja((s) => s.lineas);
  const [cliente, setCliente] = useState<ClienteTpv | null>(null);
  const [cobrando, setCobrando] = useState(false);
  const [factura, setFactura] = useState<(Documento & { cambio: number }) | null>(null);
  const [uuid] = useState(() => crypto.randomUUID());
  const totales = useMemo(() => totalesTicket(lineas), [lineas]);
  const recargo = cliente?.recargo ? recargoTicket(totales.desglose, true).reduce((s, g) => s + g.recargo, 0) : 0;
  const total = totales.total + recargo;

  const emitir = async (pagos: { forma: string; importe: number }[]) => {
    try {
      const f = await srv.facturarVenta(
        terminal.id,
        cliente!.id,
        uuid,
        lineas.map((l) => ({ articulo_id: l.articulo_id, cantidad: l.cantidad, precio: l.precio, descuento: l.descuento })),
        pagos,
      );
      setFactura(f);
      // Sold: the sale leaves the screen (the invoice is its printout).
      useCaja.getState().anularTicket();
    } catch (err) {
      throw new Error(sinConexion(err, 'La factura completa'));
    }
  };

  if (cobrando && !factura) {
    return <Cobro total={total} titulo="Cobrar la factura completa" alCobrar={emitir} onCancelar={() => setCobrando(false)} onCobrado={() => setCobrando(false)} />;
  }
  return (
    <Fondo>
      <TouchDialog aria-label="Factura completa (F1)" style={{ width: 'min(640px, 100%)' }} onKeyDown={(e) => e.key === 'Escape' && !factura && onCerrar()}>
        <h2>Factura completa (F1)</h2>
        {factura ? (
          <>
            <p role="status" style={{ fontSize: 18 }}>
              Factura <strong data-testid="f1-numero">{factura.numero}</strong> para {cliente?.razon_social} ({cliente?.nif}): {formatMoney(factura.total ?? 0)}.
              {factura.cambio > 0 && (
                <>
                  {' '}Cambio: <strong data-testid="f1-cambio">{formatMoney(factura.cambio)}</strong>.
                </>
              )}
            </p>
            <Fila>
              <TouchButton $tono="primario" onClick={() => void pdfFactura(factura, config, { nombre: terminal.emisor.nombre, nif: terminal.emisor.nif }, cliente)}>PDF de la factura</TouchButton>
              <TouchButton $grande autoFocus onClick={onCerrar}>Terminar</TouchButton>
            </Fila>
          </>
        ) : (
          <>
            <p>
              La venta ({lineas.length} {lineas.length === 1 ? 'línea' : 'líneas'}, {formatMoney(totales.total)}) se cobra como factura completa a nombre del cliente, en lugar de un
              ticket.
            </p>
            <ElegirCliente cliente={cliente} onCliente={setCliente} autoFocus idPrefijo="tpv-f1" />
            {cliente && (
              <p data-testid="f1-total" style={{ fontSize: 20, fontWeight: 700 }}>
                Total de la factura: {formatMoney(total)}
                {recargo > 0 && <span style={{ fontWeight: 400, fontSize: 15 }}> (incluye {formatMoney(recargo)} de recargo de equivalencia)</span>}
              </p>
            )}
            <Fila style={{ marginTop: 12 }}>
              <TouchButton $tono="ok" disabled={!cliente || !lineas.length} onClick={() => setCobrando(true)}>
                Cobrar la factura
              </TouchButton>
              <TouchButton onClick={onCerrar}>Cancelar</TouchButton>
            </Fila>
          </>
        )}
      </TouchDialog>
    </Fondo>
  );
}
