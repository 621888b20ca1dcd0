import type { ReactElement } from 'react';
import { Route, useParams, useSearchParams } from 'react-router';
import { ModuleGate, type FlagName } from 'shared';
import { FacturaListPage } from './FacturaListPage';
import { FacturaPage } from './FacturaPage';
import { HfaPage } from './hfa/HfaPage';
import { FACTURA, RECTIFICATIVA, type PantallaFactura } from './pantallas';
import { RegistrosPage } from './registros/RegistrosPage';
import { RemesaPage } from './remesas/RemesaPage';
import { RemesasPage } from './remesas/RemesasPage';

// Keyed by id: after "nueva" saves and moves to the record, or from one invoice to another, the screen starts afresh.
function FacturaRoute({ pantalla }: { pantalla: PantallaFactura }) {
  const id = useParams()[pantalla.rutas.param];
  return <FacturaPage key={id} pantalla={pantalla} id={id} />;
}

// Issue 26: one remesa's screen, afresh for each id.
function RemesaRoute() {
  const id = useParams().remesaId ?? '';
  return <RemesaPage key={id} id={id} />;
}

// «Rectificar» another invoice while on a new rectificativa: ?factura= changes, the screen starts afresh.
function NuevaRoute({ pantalla }: { pantalla: PantallaFactura }) {
  const [search] = useSearchParams();
  return <FacturaPage key={`nueva-${search.get('factura') ?? ''}`} pantalla={pantalla} />;
}

const gated = (flags: FlagName | FlagName[], el: ReactElement) => <ModuleGate module={flags}>{el}</ModuleGate>;

/**
 * The routes under /ventas of facturas and rectificativas (list, "nueva" and record of each), hfa (flag hfa)
 * the registros de facturación and the remesas SEPA (issue 26), all behind ventas_facturas.
 */
export function facturaRoutes(): ReactElement[] {
  return [
    ...[FACTURA, RECTIFICATIVA].flatMap((p) => [
      <Route key={`${p.def.tipo}-list`} path={p.rutas.list} element={gated(p.flag, <FacturaListPage pantalla={p} />)} />,
      <Route key={`${p.def.tipo}-new`} path={p.rutas.nuevo} element={gated(p.flag, <NuevaRoute pantalla={p} />)} />,
      <Route key={`${p.def.tipo}-record`} path={p.rutas.record} element={gated(p.flag, <FacturaRoute pantalla={p} />)} />,
    ]),
    <Route key="hfa" path="hfa" element={gated(['hfa', 'ventas_facturas'], <HfaPage />)} />,
    <Route key="registros" path="registros" element={gated('ventas_facturas', <RegistrosPage />)} />,
    // Issue 26: remesas SEPA of the invoices paid by direct debit.
    <Route key="remesas" path="remesas" element={gated('ventas_facturas', <RemesasPage />)} />,
    <Route key="remesa" path="remesa/:remesaId" element={gated('ventas_facturas', <RemesaRoute />)} />,
  ];
}
