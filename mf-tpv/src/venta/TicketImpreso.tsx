import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { descargarTicketPdf, matrizQrTicket, presentacionQr, TITULO_QR, type TicketPdf } from 'shared';
import { useCaja } from '../caja/estado';
import { Boton, Dialogo, Fila, Fondo } from '../caja/estilos';
import type { TicketLocal } from '../datos/cola';
import { datosTicket, nombreFicheroTicket } from '../impresion/ticket';

/** The 80 mm ticket as HTML: what the browser prints (@page 80 mm) and what the screen shows. */
const Rollo = styled.div`
  width: 80mm;
  max-width: 100%;
  box-sizing: border-box;
  margin: 0 auto;
  padding: 3mm;
  background: #fff;
  color: #000;
  font: 12px/1.35 ui-monospace, 'DejaVu Sans Mono', monospace;
  border: 1px dashed #94a3b8;
  .c { text-align: center; }
  .r { text-align: right; }
  .b { font-weight: 700; }
  hr { border: 0; border-top: 1px dashed #000; margin: 4px 0; }
  table { width: 100%; border-collapse: collapse; }
  td { padding: 0; vertical-align: top; border: 0; }
  .total { font-size: 16px; font-weight: 800; }
  svg { display: block; margin: 4px auto; width: 34mm; height: 34mm; }
  @media print {
    border: 0;
    padding: 0;
    @page { size: 80mm auto; margin: 2mm; }
  }
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
    </Rollo>
  );
}

/** After the payment: the ticket, print it (browser or PDF), and Intro for the next customer. */
export default function TicketImpreso({ ticket, onCerrar, onFacturar }: { ticket: TicketLocal; onCerrar(): void; onFacturar?(numero: string): void }) {
  const terminal = useCaja((s) => s.terminal);
  const config = useCaja((s) => s.sesion?.config ?? null);
  const datos = datosTicket(ticket, terminal, config);
  return (
    <Fondo>
      <Dialogo aria-label="Ticket" style={{ width: 'min(460px, 100%)' }} onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === 'Escape') {
            e.preventDefault();
            onCerrar();
          }
        }}
      >
        {ticket.cambio > 0 && (
          <p style={{ fontSize: 28, fontWeight: 800, textAlign: 'center', margin: '0 0 8px', color: '#15803d' }} data-testid="cambio">
            Cambio: {datos.cambio}
          </p>
        )}
        {ticket.estado === 'pendiente' && (
          <p role="status" style={{ margin: '0 0 8px', color: '#b45309', fontWeight: 600 }}>
            Sin conexión: ticket guardado en este terminal con su registro; se enviará solo al volver la conexión.
          </p>
        )}
        <RolloTicket datos={datos} />
        <Fila style={{ marginTop: 12 }}>
          <Boton $tono="primario" $grande autoFocus onClick={onCerrar}>Nuevo ticket</Boton>
          <Boton onClick={() => window.print()}>Imprimir</Boton>
          <Boton onClick={() => void descargarTicketPdf(datos, nombreFicheroTicket(datos.numero))}>PDF</Boton>
          {/* The customer asks for a full invoice: an F3 replacing this ticket (it needs the server to have it). */}
          {onFacturar && ticket.estado === 'subido' && <Boton onClick={() => onFacturar(datos.numero)}>Factura completa</Boton>}
        </Fila>
      </Dialogo>
    </Fondo>
  );
}
