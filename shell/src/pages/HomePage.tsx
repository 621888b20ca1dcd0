import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import styled from 'styled-components';
import {
  AvisoList,
  Callout,
  Card,
  DOCUMENTO_TIPOS,
  direccionesDocumento,
  formatMoney,
  formatMonth,
  MESSAGES,
  Muted,
  Spinner,
  soloTpv,
  usePermisos,
  useShell,
  type AvisoVerifactu,
  type DeployInfo,
  type DocumentoTipo,
  type GraficoMes,
  type ModuleFlags,
  type PendienteInicio,
  type Permisos,
  type Theme,
  type VerifactuInfo,
} from 'shared';

type T = { theme: Theme };
const HomeChart = lazy(() => import('./HomeChart'));

const StyledLinks = styled.div<{ $cols: number }>`
  display: grid;
  grid-template-columns: repeat(${({ $cols }) => $cols}, minmax(0, 1fr));
  gap: 16px;
  margin-bottom: 20px;
  ${({ theme }: T) => theme.phone} { grid-template-columns: 1fr; }
`;
const StyledQuick = styled(Link)<{ $disabled?: boolean }>`
  display: flex;
  align-items: center;
  gap: 14px;
  padding: 18px;
  border-radius: ${({ theme }: T) => theme.radius};
  background: #fff;
  border: 1px solid ${({ theme }: T) => theme.gray[200]};
  text-decoration: none;
  color: ${({ theme }: T) => theme.gray[900]};
  pointer-events: ${({ $disabled }) => ($disabled ? 'none' : 'auto')};
  opacity: ${({ $disabled }) => ($disabled ? 0.55 : 1)};
  &:hover { border-color: ${({ theme }: T) => theme.primary[300]}; box-shadow: 0 4px 12px rgb(15 23 42 / 0.08); }
  .icon { width: 44px; height: 44px; border-radius: 10px; display: grid; place-items: center; font-size: 22px; background: ${({ theme }: T) => theme.primary[100]}; color: ${({ theme }: T) => theme.primary[800]}; }
  strong { display: block; font-size: 16px; }
  span.sub { font-size: 13px; color: ${({ theme }: T) => theme.gray[500]}; }
`;

const StyledMeses = styled.details`
  margin-top: 8px;
  font-size: 13px;
  summary { cursor: pointer; color: ${({ theme }: T) => theme.primary[700]}; font-weight: 600; padding: 4px 0; }
  div { margin-top: 6px; display: flex; gap: 4px 10px; flex-wrap: wrap; align-items: baseline; }
  span { color: ${({ theme }: T) => theme.gray[500]}; }
  a { color: ${({ theme }: T) => theme.primary[700]}; }
`;

/** desde/hasta of a whole month 'YYYY-MM', grouped by customer or supplier (what a month's bar sums). */
function mesParams(mes: string, serie: 'compras' | 'ventas'): string {
  const [y, m] = mes.split('-').map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return new URLSearchParams({ desde: `${mes}-01`, hasta: `${mes}-${String(last).padStart(2, '0')}`, agrupar: serie === 'ventas' ? 'cliente' : 'proveedor' }).toString();
}

type QuickLink = { to: string; prefix: string; icon: string; title: string; sub: string };

/** A document type's "nuevo" screen, from its definition (shared/src/domain/documentos/<tipo>.ts). */
const nuevoDocumento = (tipo: DocumentoTipo): string => direccionesDocumento(DOCUMENTO_TIPOS[tipo]).nuevo;

/**
 * «Nueva venta»: a new invoice where invoices are on (and the role makes them), else a new albarán, else a pedido
 * (none without any of them).
 */
function nuevaVenta(flags: ModuleFlags, permisos: Permisos): QuickLink[] {
  const venta = { prefix: '/ventas', icon: '⇡', title: 'Nueva venta' };
  const ventas = permisos.puede('ventas', 'editar');
  if (flags.ventas_facturas === 1 && permisos.puede('facturas', 'editar')) return [{ ...venta, to: nuevoDocumento('factura'), sub: 'Factura a cliente' }];
  if (flags.ventas_albaranes === 1 && ventas) return [{ ...venta, to: nuevoDocumento('albaranventa'), sub: 'Albarán de cliente' }];
  if (flags.ventas_pedidos === 1 && ventas) return [{ ...venta, to: nuevoDocumento('pedidoventa'), sub: 'Pedido de cliente' }];
  return [];
}

/**
 * VERI*FACTU's warnings (certificate expiring or expired, records pending too long or refused), worked out by
 * the server; only where invoices are on. A failed read shows nothing: the home page still works.
 */
function useAvisosVerifactu(on: boolean): AvisoVerifactu[] {
  const { api } = useShell();
  const [avisos, setAvisos] = useState<AvisoVerifactu[]>([]);
  useEffect(() => {
    setAvisos([]);
    if (!on) return;
    let live = true;
    api
      .get<VerifactuInfo>('listadoverifactu')
      .then((res) => live && res.RESULT === '0' && setAvisos(res.data?.[0]?.avisos ?? []))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api, on]);
  return avisos;
}

const StyledPendientes = styled.section`
  margin-bottom: 20px;
  h2 { font-size: 16px; margin: 0 0 10px; }
  ul { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(250px, 1fr)); gap: 12px; }
  li a {
    display: block;
    height: 100%;
    /* Its padding inside the cell: a card never reaches over the next one or the chart below. */
    box-sizing: border-box;
    padding: 14px 16px;
    border-radius: ${({ theme }: T) => theme.radius};
    background: #fff;
    border: 1px solid ${({ theme }: T) => theme.gray[200]};
    border-left: 4px solid ${({ theme }: T) => theme.primary[500]};
    text-decoration: none;
    color: ${({ theme }: T) => theme.gray[900]};
  }
  li a:hover { border-color: ${({ theme }: T) => theme.primary[300]}; }
  li.aviso a { border-left-color: #b45309; }
  .cifra { display: block; font-size: 20px; font-weight: 700; margin-top: 2px; }
  .titulo { font-weight: 600; }
  .detalle { display: block; font-size: 13px; color: ${({ theme }: T) => theme.gray[500]}; margin-top: 4px; }
`;

/** What a count means, in words: «2 facturas», «1 registro»… */
function cuenta(p: PendienteInicio): string {
  const [uno, varios] =
    p.clave === 'cobros_vencidos'
      ? ['factura', 'facturas']
      : p.clave.startsWith('registros')
        ? ['registro', 'registros']
        : p.clave === 'bajo_minimo'
          ? ['artículo', 'artículos']
          : p.clave.startsWith('pagos')
            ? ['vencimiento', 'vencimientos']
            : ['pedido', 'pedidos'];
  return `${p.documentos} ${p.documentos === 1 ? uno : varios}`;
}

/**
 * Issue 26: what is waiting (overdue receivables, orders to serve and to receive, stock below minimum, records
 * unsent or refused), each a link to its filtered list; the server sends only what the role may see.
 */
function Pendientes({ deployed }: { deployed: Set<string> }) {
  const { api } = useShell();
  const [items, setItems] = useState<PendienteInicio[]>([]);
  useEffect(() => {
    let live = true;
    api
      .get<PendienteInicio>('resumeninicio')
      .then((res) => live && res.RESULT === '0' && setItems(res.data ?? []))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api]);
  const visibles = items.filter((p) => deployed.has(`/${p.ruta.split('/')[1]}`));
  if (!visibles.length) return null;
  return (
    <StyledPendientes aria-labelledby="pendiente-titulo">
      <h2 id="pendiente-titulo">Pendiente</h2>
      <ul>
        {visibles.map((p) => (
          <li key={p.clave} className={['cobros_vencidos', 'pagos_vencidos', 'registros_fallidos'].includes(p.clave) ? 'aviso' : undefined}>
            <Link to={p.ruta}>
              <span className="titulo">{p.titulo}</span>
              <span className="cifra">{p.importe !== null ? formatMoney(p.importe) : cuenta(p)}</span>
              {p.importe !== null && <span className="detalle">{cuenta(p)}</span>}
              {p.detalle?.length ? <span className="detalle">{p.detalle.map((d) => `${d.nombre}: ${formatMoney(d.importe)}`).join(' · ')}</span> : null}
            </Link>
          </li>
        ))}
      </ul>
    </StyledPendientes>
  );
}

export function HomePage({ deploy }: { deploy: DeployInfo }) {
  const { api, flags, user, config } = useShell();
  const permisos = usePermisos();
  const navigate = useNavigate();
  const [months, setMonths] = useState<GraficoMes[] | null>(null);
  const [failed, setFailed] = useState(false);
  const facturas = flags.ventas === 1 && flags.ventas_facturas === 1;
  const avisos = useAvisosVerifactu(facturas && permisos.puede('verifactu'));
  // A role without any back-office area (Caja) works at the till only: no sections here.
  const tpv = soloTpv(permisos.derechos);
  const showChart = !tpv && (flags.compras === 1 || flags.ventas === 1) && permisos.puede('informes');

  // biome-ignore lint/correctness/useExhaustiveDependencies: the server draws the chart from the compras/ventas flags, so switching either must fetch it again although the request does not carry them.
  useEffect(() => {
    if (!showChart) return;
    let live = true;
    api
      .get<GraficoMes>('graficoinicio')
      .then((res) => live && (res.RESULT === '0' ? setMonths(res.data ?? []) : setFailed(true)))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [api, flags.compras, flags.ventas, showChart]);

  const deployed = new Set(deploy.remotes.map((r) => r.prefix));
  // The till: where the flag is on, the role sells and the remote is deployed.
  const caja: QuickLink[] =
    flags.tpv === 1 && permisos.puede('tpv') && deployed.has('/tpv') ? [{ to: '/tpv', prefix: '/tpv', icon: '▤', title: 'TPV', sub: 'Vender en el mostrador' }] : [];

  if (tpv) {
    return (
      <div>
        <h1 style={{ fontSize: 22, margin: '0 0 4px' }}>Hola, {user?.nombre ?? ''}</h1>
        <Muted style={{ marginBottom: 20 }}>{config?.razon_social ?? ''}</Muted>
        <Callout role="status">{MESSAGES.soloTpv.replace('{rol}', permisos.rol?.nombre ?? '')}</Callout>
        {caja.length > 0 && (
          <StyledLinks $cols={1} data-testid="accesos" style={{ marginTop: 16 }}>
            {caja.map((l) => (
              <StyledQuick key={l.to} to={l.to}>
                <span className="icon" aria-hidden>{l.icon}</span>
                <span>
                  <strong>{l.title}</strong>
                  <span className="sub">{l.sub}</span>
                </span>
              </StyledQuick>
            ))}
          </StyledLinks>
        )}
      </div>
    );
  }

  const links: QuickLink[] = [
    ...(permisos.puede('catalogo', 'editar')
      ? [{ to: '/catalogo/articulo/nuevo-articulo', prefix: '/catalogo', icon: '▦', title: 'Nuevo artículo', sub: 'Alta en el catálogo' }]
      : []),
    // Without orders, purchases start at the albarán.
    ...(flags.compras && permisos.puede('compras', 'editar')
      ? [
          flags.compras_pedidos === 1
            ? { to: nuevoDocumento('pedidocompra'), prefix: '/compras', icon: '⇣', title: 'Nueva compra', sub: 'Pedido a proveedor' }
            : { to: nuevoDocumento('albarancompra'), prefix: '/compras', icon: '⇣', title: 'Nueva compra', sub: 'Albarán de proveedor' },
        ]
      : []),
    ...(flags.ventas ? nuevaVenta(flags, permisos) : []),
    ...(permisos.puede('informes') ? [{ to: '/informes', prefix: '/informes', icon: '▥', title: 'Informes', sub: 'Ventas, compras, stock y fiscal' }] : []),
    ...caja,
  ];
  // The chart's months open that month's sales or purchases report (mf-informes), when it is deployed.
  const informes = deployed.has('/informes');
  const informeMes = (mes: string, serie: 'compras' | 'ventas') => `/informes/info-${serie}?${mesParams(mes, serie)}`;
  const series = (['ventas', 'compras'] as const).filter((s) => flags[s] === 1 && permisos.puede(s));
  const registros = permisos.puede('facturas') || permisos.puede('verifactu');

  return (
    <div>
      <h1 style={{ fontSize: 22, margin: '0 0 4px' }}>Hola, {user?.nombre ?? 'admin'}</h1>
      <Muted style={{ marginBottom: 20 }}>{config?.razon_social ?? ''}</Muted>
      <AvisoList avisos={avisos} label="Avisos de VERI*FACTU">
        <Muted style={{ fontSize: 13 }}>
          {deployed.has('/ventas') && registros && <Link to="/ventas/registros">Ver los registros de facturación</Link>}
          {deployed.has('/ventas') && registros && deployed.has('/config') && ' · '}
          {deployed.has('/config') && <Link to="/config/verifactu">Configuración de VERI*FACTU</Link>}
        </Muted>
      </AvisoList>
      <StyledLinks $cols={Math.max(links.length, 1)} data-testid="accesos">
        {links.map((l) => {
          const available = deployed.has(l.prefix);
          return (
            <StyledQuick key={l.to} to={l.to} $disabled={!available} aria-disabled={!available} tabIndex={available ? 0 : -1}>
              <span className="icon" aria-hidden>{l.icon}</span>
              <span>
                <strong>{l.title}</strong>
                <span className="sub">{available ? l.sub : 'Sección no instalada en este servidor'}</span>
              </span>
            </StyledQuick>
          );
        })}
      </StyledLinks>
      <Pendientes deployed={deployed} />
      {showChart && (
        <Card>
          <h2 style={{ fontSize: 16, margin: '0 0 4px' }}>Pedidos por mes</h2>
          <Muted>Importe total de los pedidos de los últimos 12 meses</Muted>
          {failed ? (
            <Muted role="alert" style={{ padding: 24 }}>No se ha podido cargar el gráfico.</Muted>
          ) : months ? (
            <>
              <Suspense fallback={<Spinner />}>
                <HomeChart months={months} onMonth={informes ? (mes, serie) => navigate(informeMes(mes, serie)) : undefined} />
              </Suspense>
              {informes && series.length > 0 && (
                <StyledMeses>
                  <summary>Abrir un mes en Informes</summary>
                  {series.map((serie) => (
                    <div key={serie}>
                      <span>{serie === 'ventas' ? 'Ventas de' : 'Compras de'}</span>
                      {months.map((m) => (
                        <Link key={m.mes} to={informeMes(m.mes, serie)}>
                          {formatMonth(m.mes)}
                        </Link>
                      ))}
                    </div>
                  ))}
                </StyledMeses>
              )}
            </>
          ) : (
            <Spinner />
          )}
        </Card>
      )}
    </div>
  );
}
