import { useCallback, useEffect, useMemo, useState } from 'react';
import styled from 'styled-components';
import {
  Button,
  Callout,
  Card,
  ConfirmDialog,
  FormActions,
  FormGrid,
  Muted,
  PageHeader,
  RecordForm,
  SearchPicker,
  SelectField,
  SortableGrid,
  Spinner,
  TextField,
  moverEnLista,
  useAction,
  useListOptions,
  usePermisos,
  useShell,
  type Articulo,
  type Familia,
  type Theme,
} from 'shared';
import { COLORES_BOTON, COLOR_POR_DEFECTO, textoBoton, type BotonTpv, type BotonesTpv, type PaginaTpv, type Terminal } from '../datos';
import { Boton } from './Boton';
import { VistaPrevia } from './VistaPrevia';

type T = { theme: Theme };

/** A page or a button being edited: a key of its own until the server gives it an id. */
type BotonEd = BotonTpv & { _k: string };
type Pagina = Omit<PaginaTpv, 'botones'> & { _k: string; botones: BotonEd[] };

let seq = 0;
const clave = () => `n${++seq}`;
const MAX_ETIQUETA = 30;
const MAX_NOMBRE_PAGINA = 30;

const StyledBotones = styled.div`
  display: grid;
  grid-template-columns: minmax(200px, 240px) minmax(0, 1fr);
  gap: 16px;
  align-items: start;
  ${({ theme }: T) => theme.phone} { grid-template-columns: minmax(0, 1fr); }
  h2 { font-size: 16px; margin: 0 0 10px; }
  .paginas { display: flex; flex-direction: column; gap: 6px; list-style: none; margin: 0 0 10px; padding: 0; }
  .paginas li { display: flex; gap: 4px; align-items: center; }
  .paginas .nombre { flex: 1; min-width: 0; text-align: left; justify-content: flex-start; overflow: hidden; text-overflow: ellipsis; }
  .paginas .nombre[aria-current='true'] { border-color: ${({ theme }: T) => theme.primary[600]}; background: ${({ theme }: T) => theme.primary[50]}; font-weight: 600; }
  .panel { margin: 12px 0 0; padding: 0; border: 0; min-width: 0; display: grid; gap: 10px; }
  .mover { margin: 0; padding: 0; border: 0; min-width: 0; display: flex; flex-wrap: wrap; gap: 6px; }
  .vacia { padding: 24px; text-align: center; color: ${({ theme }: T) => theme.gray[500]}; border: 2px dashed ${({ theme }: T) => theme.gray[200]}; border-radius: 8px; }
  .swatches { display: flex; flex-wrap: wrap; gap: 6px; border: 0; padding: 0; margin: 0; }
  .swatches legend { font-size: 13px; font-weight: 600; color: ${({ theme }: T) => theme.gray[700]}; margin-bottom: 4px; padding: 0; }
  .swatch { width: 32px; height: 32px; border-radius: 6px; border: 2px solid transparent; cursor: pointer; padding: 0; }
  .swatch[aria-pressed='true'] { border-color: ${({ theme }: T) => theme.gray[900]}; box-shadow: 0 0 0 2px #fff inset; }
`;

/** Columns of the till's grid: five on a counter's screen, three on a phone. */
function useColumnas(): number {
  const query = '(max-width: 600px)';
  const [narrow, setNarrow] = useState(() => typeof window !== 'undefined' && !!window.matchMedia?.(query).matches);
  useEffect(() => {
    const m = window.matchMedia?.(query);
    if (!m) return;
    const on = () => setNarrow(m.matches);
    m.addEventListener?.('change', on);
    return () => m.removeEventListener?.('change', on);
  }, []);
  return narrow ? 3 : 5;
}

/**
 * The button's own label: the server answers the one the till shows; when it also says the article's TPV name or
 * description and the label is just that, the button has none of its own (it follows the article).
 */
function etiquetaPropia(b: BotonTpv): string | null {
  const delArticulo = b.nombre_tpv?.trim() || b.descripcion?.trim();
  if (delArticulo && b.etiqueta?.trim() === delArticulo) return null;
  return b.etiqueta?.trim() || null;
}

function desdeServidor(rows: PaginaTpv[]): Pagina[] {
  return [...rows]
    .sort((a, b) => (a.orden ?? 0) - (b.orden ?? 0))
    .map((p) => ({
      ...p,
      _k: clave(),
      // The server's price is IVA included in ten-thousandths (a line's unit price); the buttons show cents.
      botones: [...(p.botones ?? [])]
        .sort((a, b) => a.posicion - b.posicion)
        .map((b) => ({ ...b, etiqueta: etiquetaPropia(b), precio: b.precio == null ? null : Math.round(b.precio / 100), _k: clave() })),
    }));
}

function ColorPicker({ value, onChange, label }: { value: string | null; onChange: (c: string) => void; label: string }) {
  return (
    <fieldset className="swatches">
      <legend>{label}</legend>
      {COLORES_BOTON.map((c) => (
        <button
          key={c.value}
          type="button"
          className="swatch"
          style={{ background: c.value }}
          aria-label={c.label}
          aria-pressed={(value ?? COLOR_POR_DEFECTO).toLowerCase() === c.value}
          title={c.label}
          onClick={() => onChange(c.value)}
        />
      ))}
    </fieldset>
  );
}

/**
 * /ventas/botones-tpv: the pages of buttons of the till, shared by every terminal or a terminal's own. A page is
 * a family's (the till lists its articles) or its own article buttons, arranged by drag and drop or by keyboard,
 * each with its colour and its label (the article's «Nombre en el TPV» unless another is written). Saved whole
 * with `editarbotonestpv`; beside it, what the till shows.
 */
export function BotonesPage() {
  const { api } = useShell();
  const permisos = usePermisos();
  const puedeGuardar = permisos.accion('editarbotonestpv');
  const columnas = useColumnas();
  const terminales = useListOptions<Terminal>('listadoterminales', { params: { orden: 'nombre' }, toOption: (t) => ({ value: String(t.id), label: t.nombre }) });
  const familias = useListOptions<Familia>('listadofamilias', { params: { orden: 'nombre', dir: 'asc' }, toOption: (f) => ({ value: String(f.id), label: f.nombre }) });
  const [ambito, setAmbito] = useState('');
  const [paginas, setPaginas] = useState<Pagina[]>([]);
  const [cargando, setCargando] = useState(true);
  const [errorCarga, setErrorCarga] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  /** The terminal chosen has its own set (1), or shows the shared one (0). */
  const [propias, setPropias] = useState<0 | 1>(0);
  const [quitandoPropias, setQuitandoPropias] = useState(false);
  const [errores, setErrores] = useState<Record<string, string>>({});
  const [paginaSel, setPaginaSel] = useState<string | null>(null);
  const [botonSel, setBotonSel] = useState<string | null>(null);
  const [familiaNueva, setFamiliaNueva] = useState('');
  const [ambitoPendiente, setAmbitoPendiente] = useState<string | null>(null);
  const { run, busy } = useAction();

  const cargar = useCallback(async () => {
    setCargando(true);
    setErrorCarga(null);
    try {
      const res = await api.get<BotonesTpv>('listadobotonestpv', ambito ? { terminal_id: ambito } : {});
      const set = res.data?.[0];
      const suyas = ambito ? (set?.propias ?? (set?.terminal_id ? 1 : 0)) : 1;
      setPropias(suyas === 1 ? 1 : 0);
      const ps = desdeServidor(set?.paginas ?? []);
      setPaginas(ps);
      setPaginaSel(ps[0]?._k ?? null);
      setBotonSel(null);
      setDirty(false);
      setErrores({});
    } catch (e) {
      setPaginas([]);
      setErrorCarga(e instanceof Error && e.message ? e.message : 'No se han podido cargar los botones');
    } finally {
      setCargando(false);
    }
  }, [api, ambito]);
  useEffect(() => {
    void cargar();
  }, [cargar]);

  const pagina = paginas.find((p) => p._k === paginaSel) ?? null;
  const boton = pagina?.botones.find((b) => b._k === botonSel) ?? null;

  const cambiar = (fn: (ps: Pagina[]) => Pagina[]) => {
    setPaginas(fn);
    setDirty(true);
  };
  const cambiarPagina = (k: string, patch: Partial<Pagina>) => cambiar((ps) => ps.map((p) => (p._k === k ? { ...p, ...patch } : p)));
  const cambiarBoton = (patch: Partial<BotonEd>) => {
    if (!pagina || !boton) return;
    cambiarPagina(pagina._k, { botones: pagina.botones.map((b) => (b._k === boton._k ? { ...b, ...patch } : b)) });
  };
  const moverBoton = (from: number, to: number) => {
    if (!pagina) return;
    cambiarPagina(pagina._k, { botones: moverEnLista(pagina.botones, from, to) });
  };

  const nuevaPagina = () => {
    const p: Pagina = { _k: clave(), nombre: `Página ${paginas.length + 1}`, familia_id: null, color: COLORES_BOTON[1].value, orden: paginas.length + 1, botones: [] };
    cambiar((ps) => [...ps, p]);
    setPaginaSel(p._k);
    setBotonSel(null);
  };
  const paginaDeFamilia = () => {
    const f = familias.rows.find((x) => String(x.id) === familiaNueva);
    if (!f) return;
    const p: Pagina = { _k: clave(), nombre: f.nombre.slice(0, MAX_NOMBRE_PAGINA), familia_id: f.id, familia_nombre: f.nombre, color: COLORES_BOTON[2].value, orden: paginas.length + 1, botones: [] };
    cambiar((ps) => [...ps, p]);
    setPaginaSel(p._k);
    setBotonSel(null);
    setFamiliaNueva('');
  };
  const quitarPagina = (k: string) => {
    const i = paginas.findIndex((p) => p._k === k);
    cambiar((ps) => ps.filter((p) => p._k !== k));
    const next = paginas[i + 1] ?? paginas[i - 1];
    setPaginaSel(next?._k ?? null);
    setBotonSel(null);
  };
  const moverPagina = (k: string, d: -1 | 1) => {
    const i = paginas.findIndex((p) => p._k === k);
    cambiar((ps) => moverEnLista(ps, i, i + d));
  };
  const anadir = async (fila: Articulo) => {
    if (!pagina) return;
    // A list row has no «Nombre en el TPV»: the article's record has.
    const a = (await api.get<Articulo>('listadoarticulos', { id: fila.id }).catch(() => null))?.data?.[0] ?? fila;
    const b: BotonEd = {
      _k: clave(),
      articulo_id: a.id,
      codigo: a.codigo,
      descripcion: a.descripcion,
      nombre_tpv: a.nombre_tpv,
      etiqueta: null,
      color: pagina.color ?? COLOR_POR_DEFECTO,
      posicion: pagina.botones.length,
      precio: a.pvp_1,
    };
    // By key and from the latest state: two articles picked quickly both stay.
    const k = pagina._k;
    cambiar((ps) => ps.map((p) => (p._k === k ? { ...p, botones: [...p.botones, { ...b, posicion: p.botones.length }] } : p)));
    setBotonSel(b._k);
  };
  const quitarBoton = () => {
    if (!pagina || !boton) return;
    const i = pagina.botones.findIndex((b) => b._k === boton._k);
    const rest = pagina.botones.filter((b) => b._k !== boton._k);
    cambiarPagina(pagina._k, { botones: rest });
    setBotonSel(rest[Math.min(i, rest.length - 1)]?._k ?? null);
  };

  const comprobar = (): Record<string, string> => {
    const e: Record<string, string> = {};
    paginas.forEach((p) => {
      if (!p.nombre.trim()) e[`pagina.${p._k}`] = 'Este campo es necesario';
      else if (p.nombre.trim().length > MAX_NOMBRE_PAGINA) e[`pagina.${p._k}`] = 'El campo es demasiado largo';
      p.botones.forEach((b) => {
        if ((b.etiqueta ?? '').trim().length > MAX_ETIQUETA) e[`boton.${b._k}`] = 'El campo es demasiado largo';
      });
    });
    return e;
  };

  const guardar = async (): Promise<boolean> => {
    const e = comprobar();
    setErrores(e);
    if (Object.keys(e).length) {
      const k = Object.keys(e)[0];
      const pk = k.startsWith('pagina.') ? k.slice(7) : paginas.find((p) => p.botones.some((b) => `boton.${b._k}` === k))?._k;
      if (pk) setPaginaSel(pk);
      if (k.startsWith('boton.')) setBotonSel(k.slice(6));
      return false;
    }
    const body = {
      terminal_id: ambito ? Number(ambito) : null,
      // In the order shown: a page's place is its order, a button's its 0-based position in the grid.
      paginas: paginas.map((p) => ({
        nombre: p.nombre.trim(),
        familia_id: p.familia_id,
        color: p.color,
        botones: p.familia_id
          ? []
          : p.botones.map((b, j) => ({ posicion: j, articulo_id: b.articulo_id, color: b.color, etiqueta: b.etiqueta?.trim() || null })),
      })),
    };
    const outcome = await run<BotonesTpv>('editarbotonestpv', body);
    if (!outcome.ok) return false;
    await cargar();
    return true;
  };

  /** A terminal back to the shared set: its own pages go. */
  const usarCompartidos = async () => {
    const outcome = await run<BotonesTpv>('editarbotonestpv', { terminal_id: Number(ambito), paginas: [] });
    setQuitandoPropias(false);
    if (outcome.ok) await cargar();
  };

  const ambitoNombre = ambito ? (terminales.rows.find((t) => String(t.id) === ambito)?.nombre ?? '') : '';
  const opcionesAmbito = useMemo(() => [{ value: '', label: 'Compartidos por todos los terminales' }, ...terminales.options], [terminales.options]);

  return (
    <>
      <PageHeader
        title="Botones TPV"
        description="Las páginas de botones de la caja: de una familia o con los artículos que elija, cada uno con su color y su posición. Compartidas por todos los terminales o propias de uno."
      />
      <Card style={{ marginBottom: 16 }}>
        <FormGrid>
          <SelectField
            label="Botones de"
            options={opcionesAmbito}
            value={ambito}
            onChange={(v) => {
              if (dirty) setAmbitoPendiente(v);
              else setAmbito(v);
            }}
            hint={ambito ? `Solo en ${ambitoNombre}.` : 'Las ven todos los terminales.'}
          />
        </FormGrid>
      </Card>
      {cargando ? (
        <Spinner />
      ) : errorCarga ? (
        <Callout $tone="danger" role="alert">
          {errorCarga}
        </Callout>
      ) : (
        <RecordForm onSubmit={guardar} dirty={dirty && puedeGuardar} aria-label="Botones TPV">
          {ambito && propias === 0 && (
            <Callout $tone="info" role="status" style={{ marginBottom: 16 }}>
              {ambitoNombre} usa los botones compartidos (abajo). Si los cambia y guarda aquí, tendrá los suyos propios y dejará de ver los compartidos.
            </Callout>
          )}
          {ambito && propias === 1 && puedeGuardar && (
            <Callout $tone="info" role="status" style={{ marginBottom: 16, display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap' }}>
              <span style={{ flex: 1 }}>{ambitoNombre} tiene sus propios botones.</span>
              <Button type="button" $variant="secondary" $small onClick={() => setQuitandoPropias(true)}>
                Usar los compartidos
              </Button>
            </Callout>
          )}
          <StyledBotones>
            <Card aria-labelledby="tpv-paginas">
              <h2 id="tpv-paginas">Páginas</h2>
              {paginas.length === 0 && <Muted style={{ fontSize: 13 }}>Todavía no hay páginas.</Muted>}
              <ul className="paginas" aria-label="Páginas">
                {paginas.map((p, i) => (
                  <li key={p._k}>
                    <Button
                      type="button"
                      $variant="secondary"
                      $small
                      className="nombre"
                      aria-current={p._k === paginaSel}
                      onClick={() => {
                        setPaginaSel(p._k);
                        setBotonSel(null);
                      }}
                    >
                      {p.nombre || '(sin nombre)'}
                      {p.familia_id ? ' · familia' : ` · ${p.botones.length}`}
                    </Button>
                    <Button type="button" $variant="ghost" $small aria-label={`Subir la página ${p.nombre}`} disabled={i === 0 || !puedeGuardar} onClick={() => moverPagina(p._k, -1)}>
                      ↑
                    </Button>
                    <Button
                      type="button"
                      $variant="ghost"
                      $small
                      aria-label={`Bajar la página ${p.nombre}`}
                      disabled={i === paginas.length - 1 || !puedeGuardar}
                      onClick={() => moverPagina(p._k, 1)}
                    >
                      ↓
                    </Button>
                  </li>
                ))}
              </ul>
              {puedeGuardar && (
                <div style={{ display: 'grid', gap: 8 }}>
                  <Button type="button" $variant="secondary" onClick={nuevaPagina}>
                    Nueva página
                  </Button>
                  <SelectField label="Página de una familia" placeholder="Familia…" options={familias.options} value={familiaNueva} onChange={setFamiliaNueva} />
                  <Button type="button" $variant="secondary" onClick={paginaDeFamilia} disabled={!familiaNueva}>
                    Añadir página de familia
                  </Button>
                </div>
              )}
            </Card>
            <div style={{ display: 'grid', gap: 16, minWidth: 0 }}>
              {pagina ? (
                <Card aria-labelledby="tpv-pagina">
                  <h2 id="tpv-pagina">Página «{pagina.nombre}»</h2>
                  <FormGrid>
                    <TextField
                      label="Nombre de la página"
                      required
                      maxLength={MAX_NOMBRE_PAGINA}
                      value={pagina.nombre}
                      error={errores[`pagina.${pagina._k}`]}
                      onChange={(v) => cambiarPagina(pagina._k, { nombre: v })}
                    />
                  </FormGrid>
                  <div style={{ margin: '10px 0' }}>
                    <ColorPicker label="Color de la pestaña" value={pagina.color} onChange={(c) => cambiarPagina(pagina._k, { color: c })} />
                  </div>
                  {pagina.familia_id ? (
                    <Muted style={{ fontSize: 14 }}>
                      Página de la familia «{pagina.familia_nombre ?? familias.rows.find((f) => f.id === pagina.familia_id)?.nombre ?? pagina.familia_id}»: la caja muestra sus
                      artículos activos por orden alfabético, con su «Nombre en el TPV».
                    </Muted>
                  ) : (
                    <>
                      {puedeGuardar && (
                        <SearchPicker<Articulo>
                          label="Añadir un artículo"
                          ac="listadoarticulos"
                          params={{ activo: 1 }}
                          placeholder="Código, código de barras o descripción…"
                          toOption={(a) => ({ value: String(a.id), label: a.descripcion, detail: [a.codigo, a.nombre_tpv ? `TPV: ${a.nombre_tpv}` : null].filter(Boolean).join(' · ') })}
                          exclude={pagina.botones.map((b) => String(b.articulo_id))}
                          onPick={(a) => void anadir(a)}
                        />
                      )}
                      <div style={{ marginTop: 12 }}>
                        {pagina.botones.length === 0 ? (
                          <div className="vacia">Página sin botones: añada artículos con la búsqueda.</div>
                        ) : (
                          <SortableGrid<BotonEd>
                            label={`Botones de la página ${pagina.nombre}`}
                            items={pagina.botones}
                            itemKey={(b) => b._k}
                            itemLabel={textoBoton}
                            columns={columnas}
                            selected={botonSel}
                            onSelect={(k) => setBotonSel(String(k))}
                            onMove={moverBoton}
                            disabled={!puedeGuardar}
                            renderItem={(b) => <Boton texto={textoBoton(b)} color={b.color} precio={b.precio} />}
                          />
                        )}
                      </div>
                      {boton && (
                        <fieldset className="panel" aria-label={`Botón ${textoBoton(boton)}`}>
                          <Muted style={{ fontSize: 13, margin: 0 }}>
                            {boton.codigo} · {boton.descripcion ?? textoBoton(boton)}
                          </Muted>
                          <FormGrid>
                            <TextField
                              label="Texto del botón"
                              maxLength={MAX_ETIQUETA}
                              value={boton.etiqueta ?? ''}
                              placeholder={boton.nombre_tpv || boton.descripcion || ''}
                              error={errores[`boton.${boton._k}`]}
                              hint={
                                boton.nombre_tpv
                                  ? `Vacío: el «Nombre en el TPV» del artículo («${boton.nombre_tpv}»).`
                                  : 'Vacío: la descripción (el artículo no tiene «Nombre en el TPV»).'
                              }
                              onChange={(v) => cambiarBoton({ etiqueta: v })}
                            />
                          </FormGrid>
                          <ColorPicker label="Color" value={boton.color} onChange={(c) => cambiarBoton({ color: c })} />
                          {puedeGuardar && (
                            <fieldset className="mover" aria-label="Mover el botón">
                              {(() => {
                                const i = pagina.botones.findIndex((b) => b._k === boton._k);
                                const n = pagina.botones.length;
                                return (
                                  <>
                                    <Button type="button" $variant="secondary" $small disabled={i === 0} onClick={() => moverBoton(i, i - 1)}>
                                      ← Antes
                                    </Button>
                                    <Button type="button" $variant="secondary" $small disabled={i === n - 1} onClick={() => moverBoton(i, i + 1)}>
                                      Después →
                                    </Button>
                                    <Button type="button" $variant="secondary" $small disabled={i - columnas < 0} onClick={() => moverBoton(i, i - columnas)}>
                                      ↑ Fila de arriba
                                    </Button>
                                    <Button type="button" $variant="secondary" $small disabled={i + columnas >= n} onClick={() => moverBoton(i, i + columnas)}>
                                      ↓ Fila de abajo
                                    </Button>
                                    <Button type="button" $variant="danger" $small onClick={quitarBoton} style={{ marginLeft: 'auto' }}>
                                      Quitar botón
                                    </Button>
                                  </>
                                );
                              })()}
                            </fieldset>
                          )}
                        </fieldset>
                      )}
                    </>
                  )}
                  {puedeGuardar && (
                    <div style={{ marginTop: 16 }}>
                      <Button type="button" $variant="danger" $small onClick={() => quitarPagina(pagina._k)}>
                        Quitar la página
                      </Button>
                    </div>
                  )}
                </Card>
              ) : (
                <Card>
                  <Muted>Cree una página para empezar.</Muted>
                </Card>
              )}
              <VistaPrevia paginas={paginas} seleccionada={paginaSel} onPagina={(k) => setPaginaSel(k)} columnas={columnas} />
            </div>
          </StyledBotones>
          <FormActions dirty={dirty} busy={busy} readOnly={!puedeGuardar} />
        </RecordForm>
      )}
      <ConfirmDialog
        open={quitandoPropias}
        title="Usar los botones compartidos"
        text={`Se borrarán las páginas propias de ${ambitoNombre} y la caja mostrará los botones compartidos.`}
        confirmLabel="Usar los compartidos"
        busy={busy}
        onConfirm={() => void usarCompartidos()}
        onCancel={() => setQuitandoPropias(false)}
      />
      <ConfirmDialog
        open={ambitoPendiente !== null}
        title="Cambios sin guardar"
        text="Los cambios de estos botones no se han guardado. ¿Cambiar de terminal sin guardarlos?"
        confirmLabel="Cambiar sin guardar"
        cancelLabel="Seguir editando"
        onConfirm={() => {
          setAmbito(ambitoPendiente ?? '');
          setAmbitoPendiente(null);
        }}
        onCancel={() => setAmbitoPendiente(null)}
      />
    </>
  );
}
