import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { downloadInformeZPdf, empresaPdf, formatMoney, informeZDeCierre, parseDecimal } from 'shared';
import { DENOMINACIONES, FORMA_PAGO_LABEL, totalArqueo, type FormaPago } from '../venta/importes';
import { useCaja } from './estado';
import { Aviso, TouchButton, Campo, TouchDialog, Fila, Fondo } from './estilos';
import * as srv from './servidor';
import type { CajaCiegaTpv } from 'shared';
import type { CierreTpv } from './tipos';
import { RolloZ } from '../impresion/RolloZ';
import { zEscPos } from '../impresion/escpos';
import { imprimir } from '../impresion/impresora';

const Billetes = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(150px, 1fr));
  gap: 6px;
  .billete { display: flex; align-items: center; gap: 6px; font-weight: 600; }
  input { width: 70px; font-size: 16px; padding: 6px; }
`;

const dif = (n: number) => <span style={{ color: n === 0 ? '#15803d' : '#b91c1c', fontWeight: 700 }}>{n > 0 ? '+' : ''}{formatMoney(n)}</span>;

/** The closing: count the drawer by denomination, the other methods, see the difference, close, the Z report. */
export default function Cierre({ onCerrar }: { onCerrar(): void }) {
  const terminal = useCaja((s) => s.terminal)!;
  const config = useCaja((s) => s.sesion?.config ?? null);
  const pendientes = useCaja((s) => s.cola.pendientes);
  const cerrarCaja = useCaja((s) => s.cerrarCaja);
  const set = useCaja((s) => s.set);
  // Without the server (or with things still queued) the closing is prepared here and sent after them.
  const [sinConexion, setSinConexion] = useState(false);
  const [preparado, setPreparado] = useState(false);
  const [uuid] = useState(() => crypto.randomUUID());
  /** Issue 23: why the Z went to the browser's dialog instead of the ESC/POS printer, if it did. */
  const [avisoImpresion, setAvisoImpresion] = useState<string | null>(null);
  const [caja, setCaja] = useState<CierreTpv | CajaCiegaTpv | null>(null);
  const [conteo, setConteo] = useState<Record<number, number>>({});
  const [otros, setOtros] = useState<Record<string, string>>({});
  const [hecho, setHecho] = useState<CierreTpv | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Issue 23: «Cerrar caja» with nothing counted asks first (a closing with an empty drawer is rarely meant).
  const [confirmar, setConfirmar] = useState(false);

  useEffect(() => {
    srv
      .leerCaja(terminal.id)
      .then((c) => {
        if (!c) setError('No hay ninguna caja abierta en este terminal.');
        setCaja(c);
      })
      .catch((e) => (e instanceof srv.SinConexion ? setSinConexion(true) : setError((e as Error).message)));
  }, [terminal.id]);

  const efectivo = totalArqueo(conteo);
  // Issue 23: a blind count (the terminal's setting; the server's caja then comes without them) hides the expected
  // figures until the closing with the count is saved: the Z shows them and the difference.
  const ciego = terminal.arqueo_ciego === 1 || (caja !== null && 'ciego' in caja);
  const cifras = caja && !ciego && !('ciego' in caja) ? caja : null;
  const esperadoEfectivo = cifras?.efectivo.esperado ?? 0;
  const esperado = (f: FormaPago) => (f === 'efectivo' ? esperadoEfectivo : (cifras?.formas.find((x) => x.forma === f)?.esperado ?? 0));
  const formas = caja?.formas ?? [];
  // A method left blank counts what is expected (the card terminal's own total is typed only when it differs).
  const contado = (f: FormaPago) => (f === 'efectivo' ? efectivo : (otros[f] ?? '').trim() === '' ? esperado(f) : Number(parseDecimal(otros[f], 2) ?? 0n));
  const lista: FormaPago[] = [...new Set<FormaPago>(['efectivo', ...formas.map((f) => f.forma), ...terminal.formas_pago])];
  const diferencia = lista.reduce((a, f) => a + contado(f) - esperado(f), 0);

  const offline = sinConexion || pendientes > 0;
  const nadaContado = !DENOMINACIONES.some((d) => conteo[d]) && lista.every((f) => f === 'efectivo' || (otros[f] ?? '').trim() === '');
  const pedirCierre = () => (nadaContado ? setConfirmar(true) : void cerrar());
  const cerrar = async () => {
    setConfirmar(false);
    setBusy(true);
    setError(null);
    try {
      const denominaciones = DENOMINACIONES.filter((d) => conteo[d]).map((d) => ({ valor: d, cantidad: conteo[d] }));
      // Offline (or counting blind) the expected figures are the server's to make: cash and what was typed go; a method left blank counts as expected.
      const formasContadas = offline || ciego ? lista.filter((f) => f === 'efectivo' || (otros[f] ?? '').trim() !== '') : lista;
      const r = await cerrarCaja(formasContadas.map((f) => ({ forma: f, importe: contado(f) })), denominaciones, uuid);
      if (r.enCola) setPreparado(true);
      else setHecho(r.fila!.cierre as CierreTpv);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const terminar = () => {
    set({ fase: 'apertura' });
    onCerrar();
  };

  if (preparado) {
    return (
      <Fondo>
        <TouchDialog aria-label="Cierre preparado">
          <h2>Cierre preparado</h2>
          <p role="status" style={{ fontSize: 18 }} data-testid="cierre-preparado">
            Arqueo anotado: {formatMoney(efectivo)} en efectivo. Se enviará al servidor en cuanto haya conexión, después de los tickets,
            devoluciones y movimientos que están en cola, y el informe Z se hará con todos ellos (Ventas › Cierres TPV).
          </p>
          <TouchButton $tono="primario" autoFocus onClick={terminar}>Terminar</TouchButton>
        </TouchDialog>
      </Fondo>
    );
  }

  if (hecho) {
    return (
      <Fondo>
        <TouchDialog aria-label="Caja cerrada" style={{ display: 'flex', flexDirection: 'column' }}>
          <h2>Cierre nº <span data-testid="cierre-codigo">{hecho.codigo}</span></h2>
          <p style={{ fontSize: 18 }}>
            {hecho.tickets} tickets, {hecho.devoluciones} devoluciones · total {formatMoney(hecho.total)} · diferencia <span data-testid="cierre-diferencia">{dif(hecho.diferencia)}</span>
          </p>
          {/* Scrolls on a short screen: reachable by keyboard too. */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus to scroll by keyboard. */}
          <section aria-label="Informe Z" tabIndex={0} style={{ flex: '1 1 auto', minHeight: 0, overflow: 'auto', margin: '8px 0' }}>
            <RolloZ z={informeZDeCierre(hecho)} empresa={empresaPdf(config) ?? { nombre: terminal.emisor.nombre, nif: terminal.emisor.nif }} />
          </section>
          {avisoImpresion && <Aviso style={{ flex: 'none' }}>{avisoImpresion}</Aviso>}
          <Fila style={{ flex: 'none' }}>
            <TouchButton
              onClick={async () => {
                // Issue 23: on the terminal's ESC/POS printer when it has one (the browser's dialog if it fails).
                const empresa = empresaPdf(config) ?? { nombre: terminal.emisor.nombre, nif: terminal.emisor.nif };
                setAvisoImpresion(await imprimir(terminal.impresora, () => zEscPos(informeZDeCierre(hecho), empresa)));
              }}
            >
              Imprimir
            </TouchButton>
            <TouchButton $tono="primario" onClick={() =>
                // Issue 22: the demo's Z says so (the server's closing says it; one made offline takes the terminal's word).
                void downloadInformeZPdf(informeZDeCierre({ ...hecho, demo: hecho.demo ?? (terminal.demo === 1 || !terminal.entorno ? 1 : 0) }), {
                  fileName: `informe-z-${hecho.terminal_nombre}-${hecho.codigo}.pdf`.replace(/[^\w.-]+/g, '_'),
                  empresa: empresaPdf(config),
                  papel: 'ticket',
                })
              }>
              Informe Z (PDF)
            </TouchButton>
            <TouchButton onClick={terminar}>Terminar</TouchButton>
          </Fila>
        </TouchDialog>
      </Fondo>
    );
  }

  return (
    <Fondo>
      <TouchDialog aria-label="Cerrar caja" onKeyDown={(e) => e.key === 'Escape' && onCerrar()}>
        <h2>Cerrar caja</h2>
        {(caja || sinConexion) && (
          <>
            {offline && (
              <Aviso role="status" data-testid="cierre-sin-conexion">
                {sinConexion ? 'Sin conexión con el servidor' : `Quedan ${pendientes} operaciones por enviar`}: el cierre se prepara aquí con lo que cuente y se envía
                después de todo lo que está en cola; el esperado y el informe Z los hace el servidor al recibirlo.
              </Aviso>
            )}
            {caja && (
              <p style={{ margin: '0 0 8px' }}>
                Abierta {new Date(caja.apertura).toLocaleString('es-ES')} · {caja.tickets} tickets · {caja.devoluciones} devoluciones · fondo {formatMoney(caja.fondo)}
              </p>
            )}
            <h3 style={{ margin: '8px 0' }}>Efectivo en el cajón</h3>
            <Billetes>
              {DENOMINACIONES.map((d) => (
                <div key={d} className="billete">
                  <span style={{ minWidth: 64 }}>{formatMoney(d)}</span>
                  <Campo
                    aria-label={`Unidades de ${formatMoney(d)}`}
                    inputMode="numeric"
                    value={conteo[d] ? String(conteo[d]) : ''}
                    placeholder="0"
                    onChange={(e) => setConteo({ ...conteo, [d]: Number(e.target.value.replace(/\D/g, '')) || 0 })}
                  />
                </div>
              ))}
            </Billetes>
            {lista.filter((f) => f !== 'efectivo').length > 0 && <h3 style={{ margin: '12px 0 8px' }}>Otras formas de pago (lo que dicen el datáfono y los justificantes)</h3>}
            <Fila>
              {lista
                .filter((f) => f !== 'efectivo')
                .map((f) => (
                  <div key={f} style={{ display: 'flex', alignItems: 'center', gap: 6, fontWeight: 600 }}>
                    {FORMA_PAGO_LABEL[f]}
                    <Campo aria-label={`Contado en ${FORMA_PAGO_LABEL[f]}`} inputMode="decimal" style={{ width: 110, fontSize: 16, padding: 6 }} value={otros[f] ?? ''} placeholder={offline || ciego ? 'lo esperado' : formatMoney(esperado(f))} onChange={(e) => setOtros({ ...otros, [f]: e.target.value })} />
                  </div>
                ))}
            </Fila>
            {offline || ciego ? (
              <>
                {ciego && !offline && (
                  <p role="note" data-testid="arqueo-ciego" style={{ margin: '8px 0 0' }}>
                    Arqueo ciego: cuente el cajón sin ver lo esperado; al cerrar, el informe Z dirá lo esperado y la diferencia.
                  </p>
                )}
                <p style={{ fontSize: 18, fontWeight: 700 }}>Efectivo contado: <span data-testid="arqueo-efectivo">{formatMoney(efectivo)}</span></p>
              </>
            ) : (
            <table aria-label="Esperado y contado" style={{ marginTop: 12 }}>
              <thead>
                <tr>
                  <th>Forma</th>
                  <th className="n">Esperado</th>
                  <th className="n">Contado</th>
                  <th className="n">Diferencia</th>
                </tr>
              </thead>
              <tbody>
                {lista.map((f) => (
                  <tr key={f}>
                    <td>{FORMA_PAGO_LABEL[f]}</td>
                    <td className="n">{formatMoney(esperado(f))}</td>
                    <td className="n">{formatMoney(contado(f))}</td>
                    <td className="n">{dif(contado(f) - esperado(f))}</td>
                  </tr>
                ))}
                <tr>
                  <th>Total</th>
                  <td />
                  <td />
                  <td className="n" data-testid="arqueo-diferencia">{dif(diferencia)}</td>
                </tr>
              </tbody>
            </table>
            )}
          </>
        )}
        {error && <Aviso>{error}</Aviso>}
        <Fila style={{ marginTop: 12 }}>
          <TouchButton $tono="peligro" disabled={busy || confirmar || (!caja && !sinConexion)} onClick={pedirCierre}>
            {offline ? 'Preparar el cierre' : 'Cerrar caja'}
          </TouchButton>
          <TouchButton onClick={onCerrar}>Volver</TouchButton>
        </Fila>
        {confirmar && (
          <div role="alertdialog" aria-modal="true" aria-labelledby="cierre-sin-contar" aria-describedby="cierre-sin-contar-texto" style={{ marginTop: 12 }}>
            <Aviso>
              <strong id="cierre-sin-contar">No ha contado nada.</strong>{' '}
              <span id="cierre-sin-contar-texto">
                La caja se cerrará con 0,00 € de efectivo en el cajón y las demás formas como se esperan. ¿Cerrar sin contar?
              </span>
            </Aviso>
            <Fila>
              <TouchButton $tono="peligro" onClick={() => void cerrar()}>Cerrar sin contar</TouchButton>
              <TouchButton autoFocus onClick={() => setConfirmar(false)}>Contar el efectivo</TouchButton>
            </Fila>
          </div>
        )}
      </TouchDialog>
    </Fondo>
  );
}
