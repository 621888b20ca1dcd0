import { formatMoney, type EmpresaPdf, type InformeZ } from 'shared';
import { Rollo } from './Rollo';

const fecha = (iso: string) =>
  iso ? new Date(iso).toLocaleString('es-ES', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' }) : '';

/** Label and amount on one row of the roll. */
function Fila({ label, importe, b }: { label: string; importe: string; b?: boolean }) {
  return (
    <tr className={b ? 'b' : undefined}>
      <td>{label}</td>
      <td className="r">{importe}</td>
    </tr>
  );
}

/**
 * The Z report as an 80 mm roll (what «Imprimir» prints through the browser's dialog): the same data as its PDF
 * (`informeZDeCierre`, shared), so the printed Z and the downloaded one say the same.
 */
export function RolloZ({ z, empresa }: { z: InformeZ; empresa: EmpresaPdf | null }) {
  return (
    <Rollo className="impresion" data-testid="informe-z-impreso">
      {empresa && (
        <div className="c">
          <div className="b">{empresa.nombre}</div>
          {empresa.nif && <div>NIF {empresa.nif}</div>}
        </div>
      )}
      <hr />
      <div className="c b">Informe Z</div>
      <div className="c">Cierre nº {z.codigo} · {z.terminal}</div>
      {z.cajero && <div>Cajero: {z.cajero}</div>}
      <div>Apertura: {fecha(z.apertura)}</div>
      <div>Cierre: {fecha(z.cierre)}</div>
      {z.numeros && <div>Tickets {z.numeros.primero} a {z.numeros.ultimo}</div>}
      <hr />
      <table>
        <tbody>
          <Fila label="Tickets" importe={String(z.tickets)} />
          <Fila label="Devoluciones" importe={String(z.devoluciones)} />
          <Fila label="TOTAL" importe={formatMoney(z.total)} b />
        </tbody>
      </table>
      {!!z.cajeros?.length && (
        <>
          <hr />
          <div className="b">Por cajero</div>
          <table data-testid="z-cajeros">
            <tbody>
              {z.cajeros.map((c) => (
                <tr key={c.nombre}>
                  <td>
                    {c.nombre} ({c.tickets}
                    {c.devoluciones ? ` + ${c.devoluciones} dev.` : ''})
                  </td>
                  <td className="r">{formatMoney(c.total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <hr />
      <div className="b">Efectivo</div>
      <table>
        <tbody>
          {z.desgloseEfectivo?.map((d) => <Fila key={d.label} label={d.label} importe={formatMoney(d.importe)} />)}
          <Fila label="Esperado" importe={formatMoney(z.esperado)} b />
          <Fila label="Contado" importe={formatMoney(z.contado)} />
          <Fila label="Diferencia" importe={formatMoney(z.diferencia)} b />
        </tbody>
      </table>
      <hr />
      <table>
        <tbody>
          <tr className="b">
            <td>Forma</td>
            <td className="r">Esperado</td>
            <td className="r">Contado</td>
          </tr>
          {z.formas.map((f) => (
            <tr key={f.label}>
              <td>{f.label}</td>
              <td className="r">{formatMoney(f.esperado)}</td>
              <td className="r">{formatMoney(f.contado)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <hr />
      <table>
        <tbody>
          <tr className="b">
            <td>IVA</td>
            <td className="r">Base</td>
            <td className="r">Cuota</td>
            <td className="r">Total</td>
          </tr>
          {z.ivas.map((i) => (
            <tr key={i.label}>
              <td>{i.label}</td>
              <td className="r">{formatMoney(i.base)}</td>
              <td className="r">{formatMoney(i.iva)}</td>
              <td className="r">{formatMoney(i.total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!!z.movimientos?.length && (
        <>
          <hr />
          <div className="b">Movimientos de caja</div>
          <table>
            <tbody>
              {z.movimientos.map((m) => (
                <tr key={`${m.fecha_hora}-${m.importe}-${m.concepto ?? ''}`}>
                  <td>
                    {m.label}
                    {m.concepto ? `: ${m.concepto}` : ''}
                  </td>
                  <td className="r">{formatMoney(m.importe)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </Rollo>
  );
}
