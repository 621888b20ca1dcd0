import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { descargarTicketPdf, matrizQrTicket, presentacionQr, TITULO_QR, type TicketPdf } from 'shared';
import { useCaja } from '../caja/estado';
import { TouchButton, TouchDialog, Fondo } from '../caja/estilos';
import type { TicketLocal } from '../datos/cola';
import { CodigoBarras } from '../impresion/CodigoBarras';
import { Rollo } from '../impresion/Rollo';
import { datosTicket, nombreFicheroTicket } from '../impresion/ticket';
import { ticketEscPos } from '../impresion/escpos';
import { imprimir } from '../impresion/impresora';

/**
 * The ticket's dialog on any screen (768 px high, a phone): the change on top and the buttons at the bottom always
 * in view; only the roll scrolls between them (a 40-line ticket).
 */
const DialogoTicket = styled(TouchDialog)`
  width: min(560px, 100%);
  display: flex;
  flex-direction: column;
  .rollo { flex: 1 1 auto; min-height: 0; overflow: auto; }
  .acciones {
    flex: none;
    margin-top: 10px;
    display: flex;
    gap: 8px;
  }
  .acciones button { flex: 1 1 0; min-width: 0; padding: 0 8px; line-height: 1.1; }
  .acciones button:first-child { flex-grow: 1.4; }
  @media (max-width: 500px) { .acciones button { font-size: 14px; } }
`;

export function QrSvg({ texto }: { texto: string }) {
  const [m, setM] = useState<boolean[][] | null>(null);
  useEffect(() => {
    let vivo = true;
    void matrizQrTicket(texto).then((x) => vivo && setM(x));
    return () => {
      vivo = false;
    };
  }, [texto]);
  if (!m) return null;
  const n = m.length;
  let d = '';
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (m[r][c]) d += `M${c + 4} ${r + 4}h1v1h-1z`;
  return (
    <svg viewBox={`0 0 ${n + 8} ${n + 8}`} shapeRendering="crispEdges" role="img" aria-label="QR tributario" data-qr={texto}>
      <rect width={n + 8} height={n + 8} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}

export function RolloTicket({ datos }: { datos: TicketPdf }) {
  // Issue 22: the legend of what its record was made for (demo, «Pruebas», verifiable, or none: live not sending yet).
  const { leyenda } = presentacionQr(datos.emision);
  return (
    <Rollo className="impresion" data-testid="ticket-impreso">
      {/* The fiscal QR first, before the ticket's content (DetalleEspecificacTecnCodigoQRfactura §3; docs/fiscal-impresion.md). */}
      {datos.qr && (
        <div className="c" data-testid="ticket-qr">
          <div>{TITULO_QR}</div>
          <QrSvg texto={datos.qr} />
          {leyenda && <div className="b" data-testid="ticket-leyenda">{leyenda}</div>}
          <hr />
        </div>
      )}
      {datos.empresa && (
        <div className="c">
          <div className="b">{datos.empresa.nombre}</div>
          {datos.empresa.nif && <div>NIF {datos.empresa.nif}</div>}
          {datos.empresa.lineas?.map((l) => <div key={l}>{l}</div>)}
        </div>
      )}
      <hr />
      <div className="c b">{datos.titulo}</div>
      <table>
        <tbody>
          <tr>
            <td>Nº <span data-testid="ticket-numero">{datos.numero}</span></td>
            <td className="r">{datos.fecha}</td>
          </tr>
        </tbody>
      </table>
      {datos.terminal && <div>{datos.terminal}{datos.cajero ? ` · Le atendió: ${datos.cajero}` : ''}</div>}
      <hr />
      <table>
        <tbody>
          {datos.lineas.map((l, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a printed ticket's lines never reorder.
            <tr key={i}>
              <td>
                {l.nombre}
                <br />
                &nbsp;&nbsp;{l.cantidad} x {l.precio}
                {l.descuento ? ` dto. ${l.descuento}` : ''}
              </td>
              <td className="r">{l.importe}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <hr />
      <table>
        <tbody>
          <tr className="total">
            <td>TOTAL</td>
            <td className="r">{datos.total}</td>
          </tr>
          {datos.pagos.map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a printed ticket's payments never reorder.
            <tr key={i}>
              <td>{p.forma}</td>
              <td className="r">{p.importe}</td>
            </tr>
          ))}
          {datos.cambio && (
            <tr>
              <td>Cambio</td>
              <td className="r">{datos.cambio}</td>
            </tr>
          )}
        </tbody>
      </table>
      <table style={{ marginTop: 4, fontSize: 11 }}>
        <tbody>
          <tr>
            <td>IVA</td>
            <td className="r">Base</td>
            <td className="r">Cuota</td>
          </tr>
          {datos.desglose.map((d) => (
            <tr key={d.tipo}>
              <td>{d.tipo}</td>
              <td className="r">{d.base}</td>
              <td className="r">{d.cuota}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div style={{ fontSize: 11 }}>IVA incluido</div>
      {datos.pie && <div className="c" style={{ marginTop: 6 }}>{datos.pie}</div>}
      {/* Issue 23: its number as a barcode — scanned into «Devolución» (or «Factura completa»), it finds the ticket. */}
      <div className="c" data-testid="ticket-barras">
        <CodigoBarras texto={datos.numero} etiqueta="Número del ticket" />
        <div style={{ fontSize: 11 }}>{datos.numero}</div>
      </div>
    </Rollo>
  );
}

/** After the payment: the ticket, print it (browser or PDF), and Intro for the next customer. */
export default function TicketImpreso({ ticket, onCerrar, onFacturar }: { ticket: TicketLocal; onCerrar(): void; onFacturar?(numero: string): void }) {
  const terminal = useCaja((s) => s.terminal);
  const config = useCaja((s) => s.sesion?.config ?? null);
  const datos = datosTicket(ticket, terminal, config);
  const [aviso, setAviso] = useState<string | null>(null);
  return (
    <Fondo>
      <DialogoTicket aria-label="Ticket" onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === 'Escape') {
            e.preventDefault();
            onCerrar();
          }
        }}
      >
        {ticket.cambio > 0 && (
          <p style={{ fontSize: 28, fontWeight: 800, textAlign: 'center', margin: '0 0 8px', color: '#15803d', flex: 'none' }} data-testid="cambio">
            Cambio: {datos.cambio}
          </p>
        )}
        {ticket.estado === 'pendiente' && (
          <p role="status" style={{ margin: '0 0 8px', color: '#92400e', fontWeight: 600, flex: 'none' }}>
            Sin conexión: ticket guardado en este terminal con su registro; se enviará solo al volver la conexión.
          </p>
        )}
        {aviso && (
          <p role="alert" style={{ margin: '0 0 8px', color: '#b91c1c', fontWeight: 600, flex: 'none' }} data-testid="aviso-impresion">
            {aviso}
          </p>
        )}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region (a long ticket) must take the focus to scroll by keyboard. */}
        <section className="rollo" aria-label="Ticket impreso" tabIndex={0}>
          <RolloTicket datos={datos} />
        </section>
        <div className="acciones">
          <TouchButton $tono="primario" $grande autoFocus onClick={onCerrar}>Nuevo ticket</TouchButton>
          <TouchButton
            onClick={async () => {
              // Issue 23: on the terminal's ESC/POS printer (opening the drawer when paid in cash), else the browser's
              // dialog — called in the click itself (WebUSB asks for the device only within a user's gesture).
              const efectivo = ticket.pagos.some((p) => p.forma === 'efectivo');
              setAviso(await imprimir(terminal?.impresora, () => ticketEscPos(datos, { abrirCajon: efectivo })));
            }}
          >
            Imprimir
          </TouchButton>
          <TouchButton onClick={() => void descargarTicketPdf(datos, nombreFicheroTicket(datos.numero))}>PDF</TouchButton>
          {/* The customer asks for a full invoice: an F3 replacing this ticket (it needs the server to have it). */}
          {onFacturar && ticket.estado === 'subido' && <TouchButton onClick={() => onFacturar(datos.numero)}>Factura completa</TouchButton>}
        </div>
      </DialogoTicket>
    </Fondo>
  );
}
