import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  BLOQUEO_MAX_MINUTOS_TPV,
  Button,
  Callout,
  IMPRESORAS_TPV,
  IMPRESORA_TPV_LABEL,
  type ImpresoraTpv,
  CheckboxListField,
  DecimalField,
  FieldSpan,
  FormGrid,
  FormSection,
  Muted,
  NotFoundPanel,
  PageHeader,
  RecordActions,
  RecordForm,
  SelectField,
  Spinner,
  SwitchField,
  TERCEROS,
  TerceroField,
  TextField,
  formatDateTime,
  formatMoney,
  useAction,
  useAlmacenes,
  useAlmacenInicial,
  useListOptions,
  usePermisos,
  useRecordEditor,
  type Serie,
  type SerieTipo,
  type TerceroFila,
} from 'shared';
import { paths } from '../../paths';
import {
  AC_VINCULAR,
  FORMAS_TPV,
  formaTpvLabel,
  TERMINAL_VACIO,
  comprobarTerminal,
  cuerpoTerminal,
  terminalSchema,
  terminalValues,
  type CodigoVinculo,
  type Terminal,
  type TerminalValues,
} from '../datos';
import { VincularDialog } from './VincularDialog';

const FORMA_OPTIONS = FORMAS_TPV.map((f) => ({ value: f, label: formaTpvLabel(f) }));
const IMPRESORA_OPTIONS = IMPRESORAS_TPV.map((i) => ({ value: i, label: IMPRESORA_TPV_LABEL[i] }));

/**
 * The series a terminal may take: active ones of the kind, not used by another terminal (two tills on one
 * serie would collide offline), plus the one it already has.
 */
function seriesLibres(series: Serie[], terminales: Terminal[], tipo: SerieTipo, propio: number | undefined, actual: string) {
  const usadas = new Map<number, string>();
  for (const t of terminales) {
    if (t.id === propio) continue;
    usadas.set(t.serie_id, t.nombre);
    usadas.set(t.serie_rectificativa_id, t.nombre);
  }
  const libres = series.filter((s) => s.tipo === tipo && (String(s.id) === actual || (s.activo === 1 && !usadas.has(s.id))));
  const ocupadas = series.filter((s) => s.tipo === tipo && s.activo === 1 && usadas.has(s.id) && String(s.id) !== actual);
  return {
    options: libres.map((s) => ({ value: String(s.id), label: `${s.codigo} · ${s.descripcion}${s.activo === 0 ? ' (inactiva)' : ''}` })),
    ocupadas: ocupadas.map((s) => `${s.codigo} (${usadas.get(s.id)})`),
  };
}

/** The terminal's two series, one field each: its kind, label, and what it says with none free. */
const SERIES_TERMINAL = [
  { campo: 'serie_id', tipo: 'simplificada', label: 'Serie de tickets', ninguna: 'No hay series simplificadas libres', hint: 'Facturas simplificadas (F2) no usadas por otro terminal.' },
  { campo: 'serie_rectificativa_id', tipo: 'rectificativa', label: 'Serie de devoluciones', ninguna: 'No hay series rectificativas libres', hint: 'Rectificativas (R5) de las devoluciones del mostrador.' },
] as const;

/** /ventas/terminal/:id and /ventas/terminal/nuevo-terminal: a till of the counter and its pairing. */
export function TerminalPage({ id }: { id?: string }) {
  const navigate = useNavigate();
  const permisos = usePermisos();
  const editor = useRecordEditor<Terminal, TerminalValues>({
    actions: { list: 'listadoterminales', save: 'editarterminal', remove: 'eliminarterminal' },
    id,
    schema: terminalSchema,
    empty: TERMINAL_VACIO,
    toValues: terminalValues,
    rules: () => ({ check: comprobarTerminal }),
    toBody: (validated, ctx) => cuerpoTerminal(validated, ctx.values, ctx.isNew ? undefined : Number(id)),
    onSaved: (t, isNew) => {
      if (isNew) navigate(paths.terminal(t.id), { replace: true });
    },
    onRemoved: () => navigate(paths.terminales),
  });
  const { form, record, isNew } = editor;
  const { values, errors, set } = form;
  const almacenes = useAlmacenes({ soloActivos: isNew });
  useAlmacenInicial(form, isNew, almacenes.porDefecto);
  const series = useListOptions<Serie>('listadoseries', { params: { orden: 'codigo', dir: 'asc' }, toOption: (s) => ({ value: String(s.id), label: s.codigo }) });
  const terminales = useListOptions<Terminal>('listadoterminales', { params: { orden: 'nombre' }, toOption: (t) => ({ value: String(t.id), label: t.nombre }) });
  const propio = isNew ? undefined : Number(id);
  const { serie_id, serie_rectificativa_id } = values;
  const libres = useMemo(
    () => SERIES_TERMINAL.map((k) => seriesLibres(series.rows, terminales.rows, k.tipo, propio, { serie_id, serie_rectificativa_id }[k.campo])),
    [series.rows, terminales.rows, propio, serie_id, serie_rectificativa_id],
  );
  const ocupadas = libres.flatMap((l) => l.ocupadas);

  const { run, busy: pidiendo } = useAction();
  const [vinculo, setVinculo] = useState<CodigoVinculo | null>(null);
  const vincular = useCallback(async () => {
    if (!record) return;
    const outcome = await run<CodigoVinculo>(AC_VINCULAR, { id: record.id });
    if (outcome.ok && outcome.data[0]) setVinculo(outcome.data[0]);
  }, [record, run]);
  const cerrarVinculo = useCallback(() => setVinculo(null), []);

  const back = { to: paths.terminales, label: 'Terminales' };
  if (editor.loading) return <Spinner />;
  if (editor.notFound) return <NotFoundPanel title="Terminal no encontrado" text="El terminal no existe o se ha eliminado." back={back} />;

  const soloLectura = !editor.puedeGuardar;
  const puedeVincular = !isNew && permisos.accion(AC_VINCULAR);
  return (
    <>
      <PageHeader
        back={back}
        title={isNew ? 'Nuevo terminal' : `Terminal ${record?.nombre ?? ''}`}
        description={
          isNew
            ? 'Un puesto de venta del mostrador: vende desde un almacén con su propia serie de tickets.'
            : record?.emparejado
              ? `Vinculado a un navegador el ${formatDateTime(record.emparejado)}.`
              : 'Todavía no está vinculado a ningún navegador.'
        }
        actions={
          puedeVincular && (
            <Button type="button" onClick={() => void vincular()} disabled={pidiendo || form.dirty} aria-busy={pidiendo} title={form.dirty ? 'Guarde antes los cambios' : undefined}>
              Vincular TPV
            </Button>
          )
        }
      />
      <RecordForm onSubmit={editor.save} dirty={form.dirty} aria-label={isNew ? 'Nuevo terminal' : 'Terminal'}>
        <FormSection title="Datos del terminal">
          <FormGrid>
            <TextField label="Nombre" required maxLength={60} value={values.nombre} error={errors.nombre} onChange={(v) => set('nombre', v)} placeholder="Caja 1" />
            <SelectField
              label="Almacén"
              required
              placeholder="Seleccione…"
              options={almacenes.options}
              value={values.almacen_id}
              error={errors.almacen_id}
              onChange={(v) => set('almacen_id', v)}
              hint="La tienda o la furgoneta de la que sale lo que vende."
            />
            <DecimalField
              label="Fondo de caja"
              required
              scale={2}
              suffix="€"
              value={values.fondo}
              error={errors.fondo}
              onChange={(v) => set('fondo', v)}
              hint="El cambio con que se abre la caja cada día."
            />
          </FormGrid>
        </FormSection>
        <FormSection title="Facturación" description="Cada terminal numera sus tickets en su propia serie: dos cajas nunca chocan, tampoco sin conexión.">
          <FormGrid>
            {SERIES_TERMINAL.map((k, i) => (
              <SelectField
                key={k.campo}
                label={k.label}
                required
                placeholder={libres[i].options.length ? 'Seleccione…' : k.ninguna}
                options={libres[i].options}
                value={values[k.campo]}
                error={errors[k.campo]}
                onChange={(v) => set(k.campo, v)}
                hint={k.hint}
              />
            ))}
            <TextField
              label="Número de instalación VERI*FACTU"
              maxLength={100}
              value={values.numero_instalacion}
              error={errors.numero_instalacion}
              onChange={(v) => set('numero_instalacion', v)}
              hint="Nombra la cadena de registros del terminal (también los que la caja hace sin conexión). Vacío: el número de instalación de la empresa seguido de -TPV y el número del terminal (nunca el mismo en dos instalaciones). No puede ser uno que ya haya nombrado una cadena."
            />
          </FormGrid>
          {ocupadas.length > 0 && (
            <Muted style={{ marginTop: 8, fontSize: 13 }}>
              Ya usadas por otro terminal: {ocupadas.join(', ')}. Cree series nuevas en Configuración › Series.
            </Muted>
          )}
        </FormSection>
        <FormSection title="Venta en el mostrador">
          <FormGrid>
            <FieldSpan>
              <TerceroField<TerceroFila>
                tercero={TERCEROS.cliente}
                label="Cliente de mostrador"
                value={values.cliente_id}
                nombre={values.cliente_nombre}
                onPick={(c) => {
                  set('cliente_id', String(c.id));
                  set('cliente_nombre', c.razon_social);
                }}
                onClear={() => {
                  set('cliente_id', '');
                  set('cliente_nombre', '');
                }}
                error={errors.cliente_id}
                disabled={soloLectura}
              />
              <Muted style={{ marginTop: 4, fontSize: 13 }}>El de los tickets sin cliente («Clientes varios»).</Muted>
            </FieldSpan>
          </FormGrid>
          <CheckboxListField
            label="Formas de pago"
            options={FORMA_OPTIONS}
            value={values.formas_pago}
            onChange={(v) => set('formas_pago', v)}
            error={errors.formas_pago}
            hint="Las que ofrece el cobro; con más de una, un ticket puede pagarse mixto (parte en cada una)."
            disabled={soloLectura}
          />
          <SwitchField
            label="Arqueo ciego"
            name="arqueo_ciego"
            checked={values.arqueo_ciego === 1}
            error={errors.arqueo_ciego}
            hint="Al cerrar la caja, quien cuenta no ve el efectivo esperado hasta haber anotado lo contado."
            onChange={(on) => set('arqueo_ciego', on ? 1 : 0)}
            disabled={soloLectura}
          />
          <FormGrid>
            <TextField
              label="Bloqueo de la caja (minutos)"
              inputMode="numeric"
              maxLength={3}
              value={values.bloqueo_minutos}
              error={errors.bloqueo_minutos}
              onChange={(v) => set('bloqueo_minutos', v.replace(/\D/g, ''))}
              hint={`Sin usarla ese tiempo, la caja se bloquea y pide el PIN de un cajero (no cierra la caja). 0: no se bloquea nunca. Como mucho ${BLOQUEO_MAX_MINUTOS_TPV}.`}
              disabled={soloLectura}
            />
            <SelectField
              label="Impresora"
              required
              options={IMPRESORA_OPTIONS}
              value={values.impresora}
              error={errors.impresora}
              onChange={(v) => set('impresora', v as ImpresoraTpv)}
              hint="Navegador: el diálogo de impresión. ESC/POS: una impresora térmica (juego de órdenes de Epson TM-T20/T88) conectada al equipo de la caja, sin diálogo y con apertura del cajón; si falla, se imprime por el navegador."
              disabled={soloLectura}
            />
          </FormGrid>
          <SwitchField
            label="Activo"
            name="activo"
            checked={values.activo === 1}
            error={errors.activo}
            hint="Un terminal inactivo no puede vender ni vincularse."
            onChange={(on) => set('activo', on ? 1 : 0)}
            disabled={soloLectura}
          />
        </FormSection>
        {!isNew && record?.activo === 0 && <Callout $tone="warning">Este terminal está inactivo: la caja no puede abrir sesión.</Callout>}
        {!isNew && record?.caja_abierta && (
          <Callout $tone="info" role="status">
            Caja abierta desde el {formatDateTime(record.caja_abierta.apertura)}
            {record.caja_abierta.usuario_nombre ? ` por ${record.caja_abierta.usuario_nombre}` : ''} con un fondo de {formatMoney(record.caja_abierta.fondo)}. Los
            cambios del fondo valen para la próxima apertura.
          </Callout>
        )}
        <RecordActions
          editor={editor}
          cancelTo={paths.terminales}
          deletion={{
            title: 'Eliminar terminal',
            text: `Se eliminará el terminal «${record?.nombre ?? ''}». Uno con tickets o cierres no se puede eliminar: desactívelo.`,
          }}
        />
      </RecordForm>
      {vinculo && record && <VincularDialog terminal={record.nombre} vinculo={vinculo} onClose={cerrarVinculo} onOtro={() => void vincular()} busy={pidiendo} />}
    </>
  );
}
