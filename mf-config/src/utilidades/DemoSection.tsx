import { useCallback, useEffect, useState } from 'react';
import styled from 'styled-components';
import { Button, Callout, ConfirmDialog, FormSection, MESSAGES, Row, useAction, useShell, type EstadoDemo, type MaestrosDemo, type Theme } from 'shared';

type T = { theme: Theme };

/** «3 documentos», «1 documento». */
const cuenta = (x: number, singular: string, plural: string) => `${x.toLocaleString('es-ES')} ${x === 1 ? singular : plural}`;

/** What `eliminardemo` answers: what went, and the masters' choice. */
type Resultado = EstadoDemo['borra'] & { maestros: MaestrosDemo };

const StyledListas = styled.div`
  display: grid;
  grid-template-columns: 1fr 1fr;
  gap: 4px 20px;
  margin: 0 0 12px;
  font-size: 14px;
  h3 { font-size: 14px; margin: 8px 0 4px; }
  ul { margin: 0; padding-left: 18px; }
  li { margin: 2px 0; }
  ${({ theme }: T) => theme.phone} { grid-template-columns: 1fr; }
`;

const StyledEleccion = styled.fieldset`
  border: 1px solid ${({ theme }: T) => theme.gray[200]};
  border-radius: 8px;
  padding: 8px 12px 10px;
  margin: 0 0 12px;
  font-size: 14px;
  legend { font-weight: 600; padding: 0 4px; }
  label { display: flex; gap: 8px; align-items: flex-start; margin-top: 6px; cursor: pointer; }
  input { margin-top: 3px; }
`;

/** The lines «Se elimina» of what goes: every count the server gave, the masters too when the owner starts without them. */
function lineasBorra(e: EstadoDemo, maestros: MaestrosDemo): string[] {
  const b = e.borra;
  const c = e.conserva;
  return [
    `${cuenta(b.documentos, 'documento', 'documentos')} de compra, venta y almacén (${cuenta(b.facturas, 'factura o rectificativa', 'facturas y rectificativas')}, ${cuenta(b.tickets, 'ticket', 'tickets')})`,
    cuenta(b.registros, 'registro de facturación VERI*FACTU', 'registros de facturación VERI*FACTU'),
    cuenta(b.cobros, 'cobro', 'cobros'),
    `${cuenta(b.movimientos, 'movimiento de stock', 'movimientos de stock')} (el stock y el coste de cada artículo vuelven a cero)`,
    `${cuenta(b.cajas, 'caja', 'cajas')} y ${cuenta(b.cierres, 'cierre', 'cierres')} de TPV`,
    cuenta(b.facturas_proveedor, 'factura de proveedor', 'facturas de proveedor'),
    cuenta(b.envios, 'envío a la AEAT', 'envíos a la AEAT'),
    'Los informes de ventas, los libros de facturas y el contador de cada serie',
    ...(maestros === 'ninguno'
      ? [`${cuenta(c.articulos, 'artículo', 'artículos')}, ${cuenta(c.clientes, 'cliente', 'clientes')} y ${cuenta(c.proveedores, 'proveedor', 'proveedores')}`]
      : []),
  ];
}

/** The lines «Se conserva»: the configuration, and the masters when kept. */
function lineasConserva(e: EstadoDemo, maestros: MaestrosDemo): string[] {
  const c = e.conserva;
  return [
    'Los datos de la empresa, las tarifas y la configuración de VERI*FACTU (el envío sigue como está)',
    `${cuenta(c.series, 'serie', 'series')} (cada una empieza en el número 1)`,
    `${cuenta(c.usuarios, 'usuario', 'usuarios')} con sus roles`,
    cuenta(c.almacenes, 'almacén', 'almacenes'),
    `${cuenta(c.terminales, 'terminal de TPV', 'terminales de TPV')} (su cadena de registros empieza de nuevo)`,
    cuenta(c.familias, 'familia', 'familias'),
    ...(maestros === 'conservar'
      ? [`${cuenta(c.articulos, 'artículo', 'artículos')}, ${cuenta(c.clientes, 'cliente', 'clientes')} y ${cuenta(c.proveedores, 'proveedor', 'proveedores')}`]
      : []),
  ];
}

/**
 * Utilidades › «Empezar con mis datos» (issue 22): while the company is the demo (a sandbox), what the trial holds
 * (`listadodemo`: the generated year and whatever was typed while trying) and what stays; the dialog says both, with
 * the choice of keeping the demo's articles, customers and suppliers, and runs `eliminardemo` (one transaction on the
 * server). The server refuses — and the section says why — once the AEAT accepted a record in production, or when
 * the company is live already.
 */
export function DemoSection() {
  const { api, toast, reloadConfig } = useShell();
  const { run, busy } = useAction();
  const [estado, setEstado] = useState<EstadoDemo | null>(null);
  const [confirmando, setConfirmando] = useState(false);
  const [maestros, setMaestros] = useState<MaestrosDemo>('conservar');
  const [rechazo, setRechazo] = useState<string | null>(null);
  const [resultado, setResultado] = useState<Resultado | null>(null);

  const cargar = useCallback(async () => {
    try {
      const res = await api.get<EstadoDemo>('listadodemo');
      setEstado(res.RESULT === '0' ? (res.data?.[0] ?? null) : null);
    } catch {
      setEstado(null);
    }
  }, [api]);

  useEffect(() => {
    void cargar();
  }, [cargar]);

  const empezar = async () => {
    setRechazo(null);
    const outcome = await run<Resultado>('eliminardemo', { maestros }, { quiet: true });
    setConfirmando(false);
    if (outcome.ok) {
      setResultado(outcome.response.data?.[0] ?? null);
      toast.success(outcome.response.message ?? MESSAGES.demoEliminada);
      await cargar();
      // The header's band goes: the session says the company is live now.
      await reloadConfig().catch(() => undefined);
    } else if (outcome.response?.message) setRechazo(outcome.response.message);
  };

  if (!estado) return null;
  const motivo = rechazo ?? (estado.demo ? estado.bloqueo : null);
  return (
    <FormSection title="Empezar con mis datos">
      {resultado && (
        <Callout role="status" style={{ marginBottom: 12 }}>
          <p style={{ margin: 0 }}>{MESSAGES.demoEliminada}</p>
          <p style={{ margin: '6px 0 0' }}>
            Se han eliminado {cuenta(resultado.documentos, 'documento', 'documentos')}, {cuenta(resultado.registros, 'registro de facturación', 'registros de facturación')},{' '}
            {cuenta(resultado.cobros, 'cobro', 'cobros')} y {cuenta(resultado.movimientos, 'movimiento de stock', 'movimientos de stock')}
            {resultado.maestros === 'ninguno' ? ', con los artículos, clientes y proveedores' : ''}.
          </p>
        </Callout>
      )}
      {!estado.demo ? (
        <p style={{ margin: 0 }}>
          La empresa trabaja con sus datos: sus facturas se registran para el entorno de producción de VERI*FACTU y sus documentos no se pueden eliminar.
        </p>
      ) : (
        <>
          <p style={{ marginTop: 0 }}>
            Esta es la empresa de demostración: pruebe lo que quiera, nada de lo que haga aquí tiene validez fiscal ni se envía a la AEAT en producción. Cuando
            quiera empezar de verdad, «Empezar con mis datos» elimina todo lo de la prueba ({cuenta(estado.borra.documentos, 'documento', 'documentos')}, de ellos{' '}
            {cuenta(estado.borra.facturas, 'factura', 'facturas')}) y conserva la configuración; la primera factura será la número 1 de su serie.
          </p>
          {motivo && (
            <Callout $tone="warning" role="alert" style={{ marginBottom: 12 }}>
              {motivo}
            </Callout>
          )}
          <Row>
            <Button type="button" $variant="danger" disabled={busy || !!motivo} onClick={() => setConfirmando(true)}>
              Empezar con mis datos…
            </Button>
          </Row>
        </>
      )}
      <ConfirmDialog
        open={confirmando}
        title="Empezar con mis datos"
        text="Se elimina todo lo de la prueba y la empresa empieza a trabajar con sus datos, para el entorno de producción de VERI*FACTU. No se puede deshacer."
        confirmLabel="Empezar con mis datos"
        busy={busy}
        onConfirm={() => void empezar()}
        onCancel={() => setConfirmando(false)}
      >
        <StyledEleccion>
          <legend>Artículos, clientes y proveedores</legend>
          <label>
            <input type="radio" name="maestros" value="conservar" checked={maestros === 'conservar'} onChange={() => setMaestros('conservar')} />
            <span>Conservar los de la demostración</span>
          </label>
          <label>
            <input type="radio" name="maestros" value="ninguno" checked={maestros === 'ninguno'} onChange={() => setMaestros('ninguno')} />
            <span>Empezar sin ninguno (también se eliminan)</span>
          </label>
        </StyledEleccion>
        <StyledListas>
          <section aria-label="Se elimina">
            <h3>Se elimina</h3>
            <ul>
              {lineasBorra(estado, maestros).map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
          </section>
          <section aria-label="Se conserva">
            <h3>Se conserva</h3>
            <ul>
              {lineasConserva(estado, maestros).map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
          </section>
        </StyledListas>
      </ConfirmDialog>
    </FormSection>
  );
}
